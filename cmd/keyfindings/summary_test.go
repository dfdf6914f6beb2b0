package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/keyfindings/keyfindings/findings"
)

// TestSummaryLinesNameCommit: every command's summary line on stderr says
// which commit it read, as the ref and the short commit.
func TestSummaryLinesNameCommit(t *testing.T) {
	f := newFixture(t)
	src := []string{"--repo", f.dir, "--defs", fixtureDefs, "--web-url", fixtureWeb}
	at := func(i int) string { return fixtureTags[i] + " (" + f.commits[i][:7] + ")" }
	out := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"build", []string{"build", "--ref", "v0.1.0", "--out", filepath.Join(out, "b")}, "findings located at " + at(0) + "; wrote"},
		{"cite", []string{"cite", "registry-order", "--ref", "v0.2.0"}, "cited registry-order at " + at(1)},
		{"diff", []string{"diff", "v0.1.0", "v0.3.0"}, "compared " + at(0) + " with " + at(2)},
		{"review", []string{"review", "--ref", "v0.3.0"}, "flagged for review at " + at(2)},
		{"verify", []string{"verify", "--ref", "v0.2.0", f.cite(t, "registry-order", "v0.1.0")}, "verified 1 citation(s) against " + at(1)},
		{"verify at its commit", []string{"verify", f.cite(t, "registry-order", "v0.1.0")}, "verified 1 citation(s) at " + f.commits[0][:7]},
		{"releases", []string{"releases", "--out", filepath.Join(out, "r")}, "3 releases, " + at(0) + " to " + at(2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{tt.args[0]}, src...)
			switch tt.name {
			case "releases":
				args = append(args[:1], "--repo", f.dir, "--defs", fixtureDefs)
			case "review": // prints no permalinks, so takes no --web-url
				args = append(args[:1], "--repo", f.dir, "--defs", fixtureDefs)
			}
			_, stderr, _ := kf(append(args, tt.args[1:]...)...)
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q lacks %q", stderr, tt.want)
			}
		})
	}
}

// TestCiteWarnsOfReview: citing a record whose facts differ from those its
// claim was written against says so on stderr, even with --quiet.
func TestCiteWarnsOfReview(t *testing.T) {
	code, stdout, stderr := runCmd("cite", "tool-output-bounds", "--repo", catalogTree, "--quiet")
	if code != 0 || !strings.Contains(stdout, "· tool-output-bounds") {
		t.Fatalf("cite: exit %d\n%s%s", code, stdout, stderr)
	}
	want := "keyfindings cite: warning: tool-output-bounds is flagged for review in the plain directory (facts changed since the claim was written)"
	if !strings.HasPrefix(stderr, want) {
		t.Errorf("stderr %q, want a warning starting %q", stderr, want)
	}
	oneLineErr(t, stderr)
}

// TestDefaultRefIsPinTag: without --ref, a local repository that holds the
// pin's tag is read there, not at HEAD; here the tag names another commit
// than the pin, so that is the moved-tag error.
func TestDefaultRefIsPinTag(t *testing.T) {
	f := newFixture(t)
	if out, _, code := kf(append([]string{"cite", "registry-order"}, f.src()...)...); code != 0 || !strings.Contains(out, "@"+f.commits[2][:7]) {
		t.Fatalf("without the pin's tag, HEAD: exit %d %s", code, out)
	}
	repo, err := git.PlainOpen(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	pin := findings.DefaultPin()
	if _, err := repo.CreateTag(pin.Ref, plumbing.NewHash(f.commits[0]), nil); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := kf(append([]string{"cite", "registry-order"}, f.src()...)...)
	if code != 1 || !strings.Contains(stderr, "pinned "+pin.Ref+" resolves to "+f.commits[0]+", not the pinned commit "+pin.Commit) {
		t.Errorf("pin tag at another commit: exit %d %q", code, stderr)
	}
	if out, _, code := kf(append([]string{"cite", "registry-order", "--ref", "v0.2.0"}, f.src()...)...); code != 0 || !strings.Contains(out, "@"+f.commits[1][:7]) {
		t.Errorf("an explicit --ref: exit %d %s", code, out)
	}
}

// TestEmptyDirectoryIsAnError: a directory that holds none of the
// catalog's files is not an opencode source; building it is an error that
// says so, and writes nothing.
func TestEmptyDirectoryIsAnError(t *testing.T) {
	empty := t.TempDir()
	out := filepath.Join(t.TempDir(), "site")
	code, _, stderr := runCmd("build", "--repo", empty, "--out", out, "--quiet")
	if code != 1 || !strings.Contains(stderr, "holds none of opencode's sources (0 of ") || !strings.Contains(stderr, "point --repo at an opencode checkout") {
		t.Errorf("empty directory: exit %d %q", code, stderr)
	}
	oneLineErr(t, stderr)
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("--out was written: %v", err)
	}
}

// TestVersion: keyfindings --version and keyfindings version print the
// version that findings.json records, with the catalog's fingerprint,
// right after the schema.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		if code, stdout, stderr := runCmd(args...); code != 0 || stdout != "keyfindings "+testVersion+"\n" || stderr != "" {
			t.Errorf("%v: exit %d %q %q", args, code, stdout, stderr)
		}
	}
	out := filepath.Join(t.TempDir(), "site")
	if code, _, stderr := runCmd("build", "--repo", catalogTree, "--out", out, "--quiet"); code != 0 {
		t.Fatal(stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "findings.json"))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	fp, err := cat.Fingerprint()
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"schema\": \"" + findings.Schema + "\",\n  \"keyfindings\": {\n    \"version\": \"" + testVersion + "\",\n    \"catalog\": \"" + fp + "\"\n  },\n  \"source\": {"
	if !strings.HasPrefix(string(data), want) {
		t.Errorf("findings.json starts\n%.300s\nwant\n%s", data, want)
	}
}
