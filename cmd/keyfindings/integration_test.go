package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/diff"
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
	// The records of model_text definitions (prompt, description,
	// reminder and template files), and only they, carry token counts
	// (their values against tiktoken are held by the tokens package's
	// tests).
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	modelText := map[string]bool{}
	for _, d := range cat.Definitions {
		modelText[d.ID] = d.ModelText
	}
	for _, r := range doc.Findings {
		if r.Location == nil {
			continue // absent at the pin (strict accepted it)
		}
		prompt := modelText[r.Definition]
		switch {
		case prompt && (r.Location.Tokens == nil || r.Location.Tokens.O200kBase <= 0 || r.Location.Tokens.O200kBase > len(r.Location.Excerpt) || r.Location.Tokens.Cl100kBase <= 0):
			t.Errorf("%s: tokens %+v for a %d-byte prompt file", r.ID, r.Location.Tokens, len(r.Location.Excerpt))
		case !prompt && r.Location.Tokens != nil:
			t.Errorf("%s: tokens %+v, want null", r.ID, *r.Location.Tokens)
		}
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: cannot cross-check with git show")
	}
	gitDir := repo
	if fi, err := os.Stat(filepath.Join(repo, ".git")); err == nil && fi.IsDir() {
		gitDir = filepath.Join(repo, ".git")
	}
	for _, r := range doc.Findings {
		if r.Location == nil {
			continue
		}
		cmd := exec.Command("sh", "-c", `git --git-dir="$1" show "$2:$3" | sed -n "$4,$5p" | sha256sum`, "sh",
			gitDir, *doc.Source.Commit, r.Location.Path, strconv.Itoa(r.Location.Lines.Start), strconv.Itoa(r.Location.Lines.End))
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		if sum := strings.Fields(string(got))[0]; sum != r.Location.SHA256 {
			t.Errorf("%s: sed|sha256sum gives %s, record says %s", r.ID, sum, r.Location.SHA256)
		}
		raw, err := exec.Command("sh", "-c", `git --git-dir="$1" show "$2:$3" | sed -n "$4,$5p"`, "sh",
			gitDir, *doc.Source.Commit, r.Location.Path, strconv.Itoa(r.Location.Lines.Start), strconv.Itoa(r.Location.Lines.End)).Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(raw) != r.Location.Excerpt && !strings.Contains(r.Location.Excerpt, "\uFFFD") {
			t.Errorf("%s: excerpt differs from the cited bytes", r.ID)
		}
	}
}

// TestRealHistoryReleases builds the releases from v1.16.0 to the pin and
// checks them against git: 27 releases, each at the commit its tag
// names, each record's hash recomputed at that commit, and every finding
// called changed between two releases sits in a file that git diff says
// changed between them.
func TestRealHistoryReleases(t *testing.T) {
	repo := realRepo(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: cannot cross-check with git")
	}
	gitDir := repo
	if fi, err := os.Stat(filepath.Join(repo, ".git")); err == nil && fi.IsDir() {
		gitDir = filepath.Join(repo, ".git")
	}
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"--git-dir=" + gitDir}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	out := filepath.Join(t.TempDir(), "rel")
	if code, _, stderr := runCmd("releases", "--repo", repo, "--from", "v1.16.0", "--to", findings.DefaultPin().Ref, "--out", out, "--quiet"); code != 0 {
		t.Fatalf("releases: exit %d: %s", code, stderr)
	}
	tags := subdirs(t, out)
	if len(tags) != 27 {
		t.Fatalf("%d release directories, want 27: %v", len(tags), tags)
	}
	var docs []*findings.Document
	for _, line := range strings.Fields(git("tag", "--list", "v1.1[678].*", "--sort=v:refname")) {
		if _, err := os.Stat(filepath.Join(out, line)); err != nil {
			continue // a tag outside vX.Y.Z
		}
		doc, err := findings.ReadDocument(filepath.Join(out, line, "findings.json"))
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.TrimSpace(git("rev-parse", line+"^{commit}")); *doc.Source.Commit != want {
			t.Errorf("%s: commit %s, git says %s", line, *doc.Source.Commit, want)
		}
		for _, r := range doc.Findings {
			if !r.Located() {
				continue
			}
			got, err := exec.Command("sh", "-c", `git --git-dir="$1" show "$2:$3" | sed -n "$4,$5p" | sha256sum`, "sh",
				gitDir, *doc.Source.Commit, r.Location.Path, strconv.Itoa(r.Location.Lines.Start), strconv.Itoa(r.Location.Lines.End)).Output()
			if err != nil {
				t.Fatal(err)
			}
			if sum := strings.Fields(string(got))[0]; sum != r.Location.SHA256 {
				t.Errorf("%s %s: sed|sha256sum gives %s, record says %s", line, r.ID, sum, r.Location.SHA256)
			}
		}
		docs = append(docs, doc)
	}
	if len(docs) != 27 {
		t.Fatalf("read %d releases in git's version order, want 27", len(docs))
	}
	for i := 1; i < len(docs); i++ {
		for _, fd := range diff.Compare(docs[i-1], docs[i]).Findings {
			if fd.Status != diff.Changed || fd.Old.Location == nil || fd.New.Location == nil {
				continue
			}
			diff := git("diff", "--stat", *docs[i-1].Source.Commit, *docs[i].Source.Commit, "--", fd.Old.Location.Path, fd.New.Location.Path)
			if strings.TrimSpace(diff) == "" {
				t.Errorf("%s changed from %s to %s, but git diff shows no change to its file", fd.ID, docs[i-1].Source.Ref, docs[i].Source.Ref)
			}
		}
	}
}

// TestRealHistoryDefaultsToPin: a copy of the real history whose HEAD is
// not the pinned release is read at the pin's tag when no --ref is given,
// and a citation from an older release is re-located by its id there.
func TestRealHistoryDefaultsToPin(t *testing.T) {
	repo := realRepo(t)
	pin := findings.DefaultPin()
	out, stderr, code := kf("cite", "system-prompt-routing", "--repo", repo)
	if code != 0 || !strings.Contains(out, "@"+pin.Commit[:7]+"](") || !strings.Contains(stderr, "at "+pin.Ref+" ("+pin.Commit[:7]+")") {
		t.Fatalf("cite without --ref: exit %d\n%s%s", code, out, stderr)
	}
	old, _, code := kf("cite", "system-prompt-routing", "--repo", repo, "--ref", "v1.17.0", "--quiet")
	if code != 0 {
		t.Fatal("cite at v1.17.0 failed")
	}
	out, _, _ = kf("verify", "--repo", repo, "--ref", pin.Ref, "--quiet", strings.TrimSpace(old))
	if !strings.Contains(out, " → ") || !strings.Contains(out, "@"+pin.Commit[:7]) || !strings.HasSuffix(out, "\n") {
		t.Errorf("verify of a v1.17.0 citation at %s: %s", pin.Ref, out)
	}
}
