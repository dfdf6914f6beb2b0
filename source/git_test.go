package source

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/gittest"
)

func TestLocalGitSource(t *testing.T) {
	r, first, second := fixtureRepo(t)
	tests := []struct {
		ref, commit string
		line        int
	}{
		{"v0.1.0", first, 6},
		{"main", second, 3},
		{first[:8], first, 6},
		{second, second, 3},
		{"", second, 3}, // HEAD
	}
	for _, tt := range tests {
		t.Run("ref="+tt.ref, func(t *testing.T) {
			o, at, err := openAt(t, Options{Repo: r.Dir, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}, tt.ref)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := o.(*gitRepo); !ok || at.Commit != tt.commit {
				t.Fatalf("%T commit %s, want a local repository at %s", o, at.Commit, tt.commit)
			}
			if line := providerLine(t, at.Snapshot); line != tt.line {
				t.Fatalf("provider at line %d, want %d", line, tt.line)
			}
			if o.WebURL() != "https://github.com/anomalyco/opencode" || at.WebURL != o.WebURL() {
				t.Errorf("web URL %s (snapshot %s), want the pin's", o.WebURL(), at.WebURL)
			}
			if repo, err := o.Repository(); err != nil || repo == nil {
				t.Errorf("Repository: %v, %v", repo, err)
			}
			// A local repository has what it has: Ensure fetches nothing.
			if err := o.Ensure(context.Background(), "v9.9.9"); err != nil {
				t.Errorf("Ensure of a missing tag: %v, want nothing done", err)
			}
			if at.Snapshot.Commit() != tt.commit || at.Snapshot.CommittedAt().IsZero() {
				t.Errorf("snapshot at %s (%v), want %s", at.Snapshot.Commit(), at.Snapshot.CommittedAt(), tt.commit)
			}
		})
	}
}

func TestBareRepoAndWebURL(t *testing.T) {
	r, first, _ := fixtureRepo(t)
	bare := filepath.Join(t.TempDir(), "bare.git")
	if _, err := git.PlainClone(bare, true, &git.CloneOptions{URL: r.Dir, Tags: git.AllTags}); err != nil {
		t.Fatal(err)
	}
	o, at, err := openAt(t, Options{Repo: bare, WebURL: "https://git.example/mirror/", Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}, "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	if at.Commit != first || o.WebURL() != "https://git.example/mirror" {
		t.Errorf("commit %s web %s", at.Commit, o.WebURL())
	}
	// Read-only: opening changes nothing in the repository.
	before := listFiles(t, bare)
	providerLine(t, at.Snapshot)
	if after := listFiles(t, bare); after != before {
		t.Error("opening the repository changed it")
	}
}

func TestAmbiguousShortHash(t *testing.T) {
	r := gittest.New(t)
	seen := map[string]string{}
	var prefix string
	for i := 0; i < 3000 && prefix == ""; i++ {
		r.Write("n.txt", []byte(strings.Repeat("x", i)))
		h := r.Commit("c")
		if _, ok := seen[h[:4]]; ok {
			prefix = h[:4]
		}
		seen[h[:4]] = h
	}
	if prefix == "" {
		t.Skip("no colliding 4-digit prefix in 3000 commits")
	}
	_, _, err := openAt(t, Options{Repo: r.Dir, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}, prefix)
	if err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Fatalf("short hash %s: err %v, want ambiguous", prefix, err)
	}
}

// TestRefForms checks the ref spellings git accepts beyond the plain ones:
// an uppercase abbreviated id, and a tag of a tag, peeled to its commit.
func TestRefForms(t *testing.T) {
	r, first, _ := fixtureRepo(t)
	tagRef, err := r.Repo.Reference("refs/tags/v0.1.0", true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Repo.CreateTag("nested", tagRef.Hash(), &git.CreateTagOptions{Tagger: &object.Signature{Name: "F", Email: "f@example.invalid", When: r.When}, Message: "a tag of a tag"}); err != nil {
		t.Fatal(err)
	}
	pin := findings.Pin{Repo: "https://github.com/anomalyco/opencode"}
	for _, ref := range []string{strings.ToUpper(first[:8]), "nested"} {
		_, at, err := openAt(t, Options{Repo: r.Dir, Pin: pin}, ref)
		if err != nil {
			t.Errorf("--ref %s: %v", ref, err)
			continue
		}
		if at.Commit != first || at.Ref != ref {
			t.Errorf("--ref %s: commit %s ref %s, want %s", ref, at.Commit, at.Ref, first)
		}
	}
}

// TestLinkedWorktreeAndAlternates opens two layouts that keep a
// repository's objects elsewhere: a linked worktree (as `git worktree
// add` makes it: a .git file and a commondir) and a repository that
// borrows its objects through objects/info/alternates (as `git clone
// --shared` makes it). Both are built by hand, so no git binary is needed.
func TestLinkedWorktreeAndAlternates(t *testing.T) {
	r, first, second := fixtureRepo(t)
	pin := findings.Pin{Repo: "https://github.com/anomalyco/opencode"}
	mainGit := filepath.Join(r.Dir, ".git")

	wt := t.TempDir()
	admin := filepath.Join(mainGit, "worktrees", "wt")
	writeFile(t, filepath.Join(admin, "HEAD"), first+"\n")
	writeFile(t, filepath.Join(admin, "commondir"), "../..\n")
	writeFile(t, filepath.Join(admin, "gitdir"), filepath.Join(wt, ".git")+"\n")
	writeFile(t, filepath.Join(wt, ".git"), "gitdir: "+admin+"\n")

	shared := t.TempDir()
	if _, err := git.PlainInit(shared, true); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(shared, "objects", "info", "alternates"), filepath.Join(mainGit, "objects")+"\n")
	writeFile(t, filepath.Join(shared, "refs", "tags", "v0.2.0"), second+"\n")

	for _, tt := range []struct{ name, dir, ref, commit string }{
		{"worktree HEAD", wt, "", first},
		{"worktree tag", wt, "v0.1.0", first},
		{"shared clone", shared, "v0.2.0", second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, at, err := openAt(t, Options{Repo: tt.dir, Pin: pin}, tt.ref)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := o.(*gitRepo); !ok || at.Commit != tt.commit {
				t.Fatalf("%T commit %s, want a git repository at %s", o, at.Commit, tt.commit)
			}
			if _, err := at.Snapshot.ReadFile(routingPath); err != nil {
				t.Errorf("read %s: %v", routingPath, err)
			}
		})
	}
}

// TestPinTagIsDefault: a local clone that holds the pin's tag is read at
// that tag when no ref is given, not at its HEAD (which may be a commit
// upstream never had); a tag that moved is the pin's error; a clone
// without the tag is read at HEAD.
func TestPinTagIsDefault(t *testing.T) {
	r, first, second := fixtureRepo(t)
	pin := findings.Pin{Repo: "https://github.com/anomalyco/opencode", Ref: "v0.1.0", Commit: first}
	o, at, err := openAt(t, Options{Repo: r.Dir, Pin: pin}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := o.(*gitRepo); !ok || at.Commit != first || at.Ref != "v0.1.0" || at.Label() != "v0.1.0 ("+first[:7]+")" {
		t.Errorf("%T at %s %s (%s), want the pin's tag v0.1.0 at %s", o, at.Ref, at.Commit, at.Label(), first)
	}
	if _, at, err := openAt(t, Options{Repo: r.Dir, Pin: pin}, "main"); err != nil || at.Commit != second {
		t.Errorf("an explicit ref: %v, %+v", err, at)
	}
	moved := pin
	moved.Commit = second
	if _, _, err := openAt(t, Options{Repo: r.Dir, Pin: moved}, ""); err == nil || !strings.Contains(err.Error(), "tag moved") {
		t.Errorf("moved tag: %v", err)
	}
	other := pin
	other.Ref = "v9.9.9"
	if _, at, err := openAt(t, Options{Repo: r.Dir, Pin: other}, ""); err != nil || at.Commit != second || at.Ref != "HEAD" {
		t.Errorf("no pin tag: %v, %+v; want HEAD at %s", err, at, second)
	}
}

// TestRefSuggestsTagSpelling: a release named without its "v" (or with
// one it does not have) is suggested in the error.
func TestRefSuggestsTagSpelling(t *testing.T) {
	r, _, _ := fixtureRepo(t)
	r.Tag("2.0.0")
	pin := findings.Pin{Repo: "https://github.com/anomalyco/opencode"}
	for ref, want := range map[string]string{"0.1.0": "did you mean v0.1.0?", "v2.0.0": "did you mean 2.0.0?", "0.9.0": "list tags with `git tag`"} {
		_, _, err := openAt(t, Options{Repo: r.Dir, Pin: pin}, ref)
		if err == nil || !strings.Contains(err.Error(), "ref "+ref+": unknown revision") || !strings.Contains(err.Error(), want) {
			t.Errorf("--ref %s: %v; want %q", ref, err, want)
		}
	}
}

// TestFileURLOpenedInPlace: a file:// URL of a local repository is read in
// place, as its path is: no git binary, no cache, and a copy that lacks
// unrelated blobs still works.
func TestFileURLOpenedInPlace(t *testing.T) {
	r, first, _ := fixtureRepo(t)
	// Drop an object no finding needs, as a partial copy lacks it: git's
	// upload-pack (go-git's file transport) refuses such a repository.
	dropLooseObject(t, r, "packages/opencode/package.json", first)
	cache := t.TempDir()
	o, at, err := openAt(t, Options{Repo: "file://" + r.Dir, CacheDir: cache, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}, "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := o.(*gitRepo); !ok || at.Commit != first || o.WebURL() != "https://github.com/anomalyco/opencode" {
		t.Errorf("%T commit %s web %s; want the local repository in place at %s", o, at.Commit, o.WebURL(), first)
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 {
		t.Errorf("the cache was written: %v", entries)
	}
	if _, _, err := openAt(t, Options{Repo: "file://" + filepath.Join(r.Dir, "nope")}, ""); err == nil || !strings.Contains(err.Error(), "no such file or directory") {
		t.Errorf("missing directory: %v", err)
	}
}

// TestSnapshotsShareHistory checks that the snapshots a git source
// resolves share one History (an Extractor keeps what it learnt of a
// history under it), which reads each commit's parents and time as go-git
// decodes them, packed or loose, and says ErrNotFound for a commit the
// copy lacks.
func TestSnapshotsShareHistory(t *testing.T) {
	r := packedRepo(t, false)
	s, err := Open(context.Background(), Options{Repo: r.Dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, err := s.At(context.Background(), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.At(context.Background(), "HEAD~3")
	if err != nil {
		t.Fatal(err)
	}
	h := a.Snapshot.History()
	if _, ok := h.(*packHistory); !ok || h != b.Snapshot.History() {
		t.Fatalf("snapshots' histories %T %v and %v: want one shared packHistory", h, h, b.Snapshot.History())
	}
	repo, err := s.Repository()
	if err != nil {
		t.Fatal(err)
	}
	plain := NewGitHistory(repo)
	iter, err := repo.Log(&git.LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = iter.ForEach(func(c *object.Commit) error {
		n++
		gotP, gotT, err := h.Parents(c.Hash.String())
		if err != nil {
			return err
		}
		wantP, wantT, err := plain.Parents(c.Hash.String())
		if err != nil {
			return err
		}
		if !slices.Equal(gotP, wantP) || !gotT.Equal(wantT) {
			t.Errorf("%s: parents %v at %v, go-git says %v at %v", c.Hash, gotP, gotT, wantP, wantT)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 40 {
		t.Fatalf("compared %d commits, want the whole history", n)
	}
	if _, _, err := h.Parents(strings.Repeat("ab", 20)); !errors.Is(err, ErrNotFound) {
		t.Errorf("a commit the copy lacks: %v, want ErrNotFound", err)
	}
}
