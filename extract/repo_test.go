package extract

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// testRepo is a git repository built by a test with go-git itself.
type testRepo struct {
	t    testing.TB
	dir  string
	repo *git.Repository
	wt   *git.Worktree
	when time.Time
}

func newTestRepo(t testing.TB) *testRepo {
	t.Helper()
	dir := t.TempDir()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	return &testRepo{t: t, dir: dir, repo: r, wt: wt, when: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// write puts a file into the work tree.
func (r *testRepo) write(path string, data []byte) {
	r.t.Helper()
	full := filepath.Join(r.dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(full, data, 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// copyTree writes every file under src (a testdata directory) into the
// work tree.
func (r *testRepo) copyTree(src string) {
	r.t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		r.write(filepath.ToSlash(rel), data)
		return nil
	})
	if err != nil {
		r.t.Fatal(err)
	}
}

func (r *testRepo) remove(path string) {
	r.t.Helper()
	if _, err := r.wt.Remove(path); err != nil {
		r.t.Fatal(err)
	}
}

// commit commits everything and returns the commit id.
func (r *testRepo) commit(msg string) string {
	r.t.Helper()
	if err := r.wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		r.t.Fatal(err)
	}
	r.when = r.when.Add(time.Hour)
	sig := &object.Signature{Name: "Fixture", Email: "fixture@example.invalid", When: r.when}
	h, err := r.wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
	if err != nil {
		r.t.Fatal(err)
	}
	return h.String()
}

// tag makes an annotated tag at HEAD.
func (r *testRepo) tag(name string) {
	r.t.Helper()
	head, err := r.repo.Head()
	if err != nil {
		r.t.Fatal(err)
	}
	sig := &object.Signature{Name: "Fixture", Email: "fixture@example.invalid", When: r.when}
	if _, err := r.repo.CreateTag(name, head.Hash(), &git.CreateTagOptions{Tagger: sig, Message: name}); err != nil {
		r.t.Fatal(err)
	}
}

func (r *testRepo) branch(name, commit string) {
	r.t.Helper()
	ref := plumbing.NewHashReference(plumbing.NewBranchReferenceName(name), plumbing.NewHash(commit))
	if err := r.repo.Storer.SetReference(ref); err != nil {
		r.t.Fatal(err)
	}
}
