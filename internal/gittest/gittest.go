// Package gittest builds small git repositories with go-git for tests:
// commits, tags, branches and raw commits, as fixtures for the source,
// locate, verify and releases tests.
package gittest

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Repo is a git repository built by a test with go-git itself.
type Repo struct {
	T    testing.TB
	Dir  string
	Repo *git.Repository
	WT   *git.Worktree
	// When is the time of the last commit; each commit is an hour later.
	When time.Time
}

// New makes an empty repository with a work tree in a temporary directory.
func New(t testing.TB) *Repo {
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
	return &Repo{T: t, Dir: dir, Repo: r, WT: wt, When: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// Write puts a file into the work tree.
func (r *Repo) Write(path string, data []byte) {
	r.T.Helper()
	full := filepath.Join(r.Dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.T.Fatal(err)
	}
	if err := os.WriteFile(full, data, 0o644); err != nil {
		r.T.Fatal(err)
	}
}

// CopyTree writes every file under src (a testdata directory) into the
// work tree.
func (r *Repo) CopyTree(src string) {
	r.T.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		r.Write(filepath.ToSlash(rel), data)
		return nil
	})
	if err != nil {
		r.T.Fatal(err)
	}
}

// Remove deletes a file from the work tree and the index.
func (r *Repo) Remove(path string) {
	r.T.Helper()
	if _, err := r.WT.Remove(path); err != nil {
		r.T.Fatal(err)
	}
}

// Commit commits everything and returns the commit id.
func (r *Repo) Commit(msg string) string {
	r.T.Helper()
	if err := r.WT.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		r.T.Fatal(err)
	}
	r.When = r.When.Add(time.Hour)
	sig := &object.Signature{Name: "Fixture", Email: "fixture@example.invalid", When: r.When}
	h, err := r.WT.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
	if err != nil {
		r.T.Fatal(err)
	}
	return h.String()
}

// Tag makes an annotated tag at HEAD.
func (r *Repo) Tag(name string) {
	r.T.Helper()
	head, err := r.Repo.Head()
	if err != nil {
		r.T.Fatal(err)
	}
	sig := &object.Signature{Name: "Fixture", Email: "fixture@example.invalid", When: r.When}
	if _, err := r.Repo.CreateTag(name, head.Hash(), &git.CreateTagOptions{Tagger: sig, Message: name}); err != nil {
		r.T.Fatal(err)
	}
}

// Branch points a branch at a commit.
func (r *Repo) Branch(name, commit string) {
	r.T.Helper()
	ref := plumbing.NewHashReference(plumbing.NewBranchReferenceName(name), plumbing.NewHash(commit))
	if err := r.Repo.Storer.SetReference(ref); err != nil {
		r.T.Fatal(err)
	}
}

// RawCommit stores a commit with the given tree and parents, without
// moving any branch: a side branch, or (no parents) an unrelated root.
func (r *Repo) RawCommit(msg string, tree plumbing.Hash, parents ...plumbing.Hash) string {
	r.T.Helper()
	r.When = r.When.Add(time.Hour)
	sig := object.Signature{Name: "Fixture", Email: "fixture@example.invalid", When: r.When}
	c := &object.Commit{Author: sig, Committer: sig, Message: msg, TreeHash: tree, ParentHashes: parents}
	obj := r.Repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		r.T.Fatal(err)
	}
	h, err := r.Repo.Storer.SetEncodedObject(obj)
	if err != nil {
		r.T.Fatal(err)
	}
	return h.String()
}

// Blob stores data as a blob object and returns its id.
func (r *Repo) Blob(data string) plumbing.Hash {
	r.T.Helper()
	s := r.Repo.Storer
	o := s.NewEncodedObject()
	o.SetType(plumbing.BlobObject)
	w, _ := o.Writer()
	w.Write([]byte(data))
	w.Close()
	h, err := s.SetEncodedObject(o)
	if err != nil {
		r.T.Fatal(err)
	}
	return h
}

// Tree stores a tree object of entries, in git's order (a directory's name
// sorts as if it ended in '/'), and returns its id. Names are stored as
// given: git accepts names no checkout could write.
func (r *Repo) Tree(entries []object.TreeEntry) plumbing.Hash {
	r.T.Helper()
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sorted := slices.Clone(entries)
	sort.Slice(sorted, func(i, j int) bool { return key(sorted[i]) < key(sorted[j]) })
	s := r.Repo.Storer
	o := s.NewEncodedObject()
	if err := (&object.Tree{Entries: sorted}).Encode(o); err != nil {
		r.T.Fatal(err)
	}
	h, err := s.SetEncodedObject(o)
	if err != nil {
		r.T.Fatal(err)
	}
	return h
}
