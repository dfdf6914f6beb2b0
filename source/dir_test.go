package source

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

// TestPlainDirectory: a directory of files is read as it is, with no
// commit and so no permalink base; everything only a git repository has
// (refs, tags, the repository) is an error that wraps ErrPlainDirectory
// and names the directory.
func TestPlainDirectory(t *testing.T) {
	ctx := context.Background()
	pin := findings.Pin{Repo: "https://github.com/anomalyco/opencode", Ref: "v1.18.3"}
	o, at, err := openAt(t, Options{Repo: fixtureTree, Pin: pin}, "")
	if err != nil {
		t.Fatal(err)
	}
	if at.Commit != "" || at.Ref != "" || at.WebURL != "" || at.Label() != "plain directory" {
		t.Errorf("resolved %+v (%s), want no commit, ref or web URL", at, at.Label())
	}
	if line := providerLine(t, at.Snapshot); line != 6 {
		t.Errorf("provider at line %d, want 6", line)
	}
	if err := o.Ensure(ctx, ""); err != nil {
		t.Errorf("Ensure of the default: %v", err)
	}
	_, atErr := o.At(ctx, "v1")
	_, tagsErr := o.Tags(ctx)
	_, repoErr := o.Repository()
	for name, err := range map[string]error{"At": atErr, "Ensure": o.Ensure(ctx, "v1"), "Tags": tagsErr, "Repository": repoErr} {
		var se *Error
		if !errors.Is(err, ErrPlainDirectory) || !errors.As(err, &se) || se.Remedy != UseGitRepository || !strings.Contains(err.Error(), fixtureTree+" is a plain directory") {
			t.Errorf("%s: %v, want a plain-directory error naming %s", name, err, fixtureTree)
		}
	}
	if atErr.Error() != o.Ensure(ctx, "v1").Error() {
		t.Errorf("Ensure says %q, At %q: want one wording", o.Ensure(ctx, "v1"), atErr)
	}
}
