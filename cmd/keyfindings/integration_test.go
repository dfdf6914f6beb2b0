package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

// realRepo returns the local copy of opencode's history named by
// KEYFINDINGS_OPENCODE_REPO, or skips.
func realRepo(t *testing.T) string {
	t.Helper()
	repo := os.Getenv("KEYFINDINGS_OPENCODE_REPO")
	if repo == "" {
		t.Skip("KEYFINDINGS_OPENCODE_REPO is not set: point it at a local copy of opencode's history (e.g. a bare clone of xtt5480446/opencode) to run the integration tests")
	}
	return repo
}

// TestRealHistoryStrict builds the pinned release of the real history
// strictly and checks every record the way a reader would: with git, sed
// and sha256sum.
func TestRealHistoryStrict(t *testing.T) {
	repo := realRepo(t)
	pin := findings.DefaultPin()
	out := filepath.Join(t.TempDir(), "site")
	code, _, stderr := runCmd("build", "--repo", repo, "--ref", pin.Ref, "--out", out, "--strict", "--quiet")
	if code != 0 {
		t.Fatalf("build --strict at %s: exit %d: %s", pin.Ref, code, stderr)
	}
	doc, err := findings.ReadDocument(filepath.Join(out, "findings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if *doc.Source.Commit != pin.Commit {
		t.Fatalf("%s resolved to %s, pin says %s", pin.Ref, *doc.Source.Commit, pin.Commit)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: cannot cross-check with git show")
	}
	gitDir := repo
	if fi, err := os.Stat(filepath.Join(repo, ".git")); err == nil && fi.IsDir() {
		gitDir = filepath.Join(repo, ".git")
	}
	for _, r := range doc.Findings {
		cmd := exec.Command("sh", "-c", `git --git-dir="$1" show "$2:$3" | sed -n "$4,$5p" | sha256sum`, "sh",
			gitDir, *doc.Source.Commit, *r.Path, strconv.Itoa(r.Lines.Start), strconv.Itoa(r.Lines.End))
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		if sum := strings.Fields(string(got))[0]; sum != *r.SHA256 {
			t.Errorf("%s: sed|sha256sum gives %s, record says %s", r.ID, sum, *r.SHA256)
		}
		raw, err := exec.Command("sh", "-c", `git --git-dir="$1" show "$2:$3" | sed -n "$4,$5p"`, "sh",
			gitDir, *doc.Source.Commit, *r.Path, strconv.Itoa(r.Lines.Start), strconv.Itoa(r.Lines.End)).Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(raw) != *r.Excerpt && !strings.Contains(*r.Excerpt, "\uFFFD") {
			t.Errorf("%s: excerpt differs from the cited bytes", r.ID)
		}
	}
}
