package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

// TestRealHistoryEveryRelease builds every release tag from v0.15.0 to the
// pin (449 releases of the real history, minutes of work) with the
// embedded catalog and checks that no record is missing or ambiguous:
// each is located, by a shape that fits that release's code, or absent
// with its reason. Skipped with -short.
func TestRealHistoryEveryRelease(t *testing.T) {
	repo := realRepo(t)
	if testing.Short() {
		t.Skip("-short: building 449 releases takes minutes")
	}
	out := filepath.Join(t.TempDir(), "releases")
	code, _, stderr := runCmd("releases", "--repo", repo, "--from", "v0.15.0", "--to", findings.DefaultPin().Ref, "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("releases: exit %d: %s", code, stderr)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "v") {
			continue
		}
		doc, err := findings.ReadDocument(filepath.Join(out, e.Name(), "findings.json"))
		if err != nil {
			t.Fatal(err)
		}
		n++
		for _, r := range doc.Findings {
			if !r.Located() && !r.Absent() {
				t.Errorf("%s: %s is %s: %s", e.Name(), r.ID, r.Status, r.ProblemText())
			}
			if r.Absent() && (r.Problem == nil || *r.Problem == "") {
				t.Errorf("%s: %s is absent without a reason", e.Name(), r.ID)
			}
		}
	}
	if n < 449 {
		t.Errorf("%d releases built, want at least 449 (v0.15.0 to the pin)", n)
	}
}
