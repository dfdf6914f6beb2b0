package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/gittest"
)

// packedRepo makes a history whose files and directories change a little
// at each commit (so that packing stores most trees and blobs as deltas),
// packs it with go-git, and adds one loose commit after the pack.
func packedRepo(t *testing.T, refDeltas bool) *gittest.Repo {
	t.Helper()
	r := gittest.New(t)
	var body strings.Builder
	for i := range 40 {
		fmt.Fprintf(&body, "export const line%d = %d\n", i, i*i)
		r.Write("src/session/system.ts", []byte(body.String()))
		r.Write(fmt.Sprintf("src/tool/t%d.ts", i%7), []byte(body.String()+"// tool\n"))
		r.Write("README.md", []byte(fmt.Sprintf("readme %d\n", i/5)))
		r.Commit(fmt.Sprintf("commit %d", i))
	}
	if err := r.Repo.RepackObjects(&git.RepackConfig{UseRefDeltas: refDeltas}); err != nil {
		t.Fatal(err)
	}
	r.Write("src/session/system.ts", []byte(body.String()+"// loose\n"))
	r.Commit("loose")
	return r
}

// Every object of a packed repository (OFS or REF deltas) and of its
// loose objects reads as go-git reads it, each commit's header as go-git
// decodes it; and the pack held deltas, so their decoding was tested.
func TestObjectsReadAsGoGit(t *testing.T) {
	for _, ref := range []bool{false, true} {
		t.Run(fmt.Sprintf("refDeltas=%v", ref), func(t *testing.T) {
			r := packedRepo(t, ref)
			repo, err := git.PlainOpen(r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			o := NewObjects(repo)
			defer o.Close()
			if len(o.packs) != 1 {
				t.Fatalf("%d packs opened, want 1", len(o.packs))
			}
			if n := deltas(t, o.packs[0]); n < 20 {
				t.Fatalf("the pack holds %d deltas, want many", n)
			}
			iter, err := repo.Storer.IterEncodedObjects(plumbing.AnyObject)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			err = iter.ForEach(func(obj plumbing.EncodedObject) error {
				n++
				want := readAll(t, obj)
				got, err := o.Read(obj.Hash(), obj.Type())
				if err != nil {
					return err
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s %s: read %q, go-git reads %q", obj.Type(), obj.Hash(), got, want)
				}
				if obj.Type() == plumbing.CommitObject {
					checkHeader(t, o, repo, obj.Hash())
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if n < 100 {
				t.Errorf("compared %d objects, want every object of the history", n)
			}
		})
	}
}

// deltas counts the objects of p stored as deltas.
func deltas(t *testing.T, p *pack) int {
	t.Helper()
	var rd packReader
	n := 0
	for i := 0; i < p.idx.n; i++ {
		off, ok := p.idx.offset(i)
		if !ok {
			t.Fatalf("object %d: no offset", i)
		}
		rd.reset(p, off)
		typ, _, err := rd.header()
		if err != nil {
			t.Fatal(err)
		}
		if typ.IsDelta() {
			n++
		}
	}
	return n
}

func readAll(t *testing.T, obj plumbing.EncodedObject) []byte {
	t.Helper()
	rd, err := obj.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// checkHeader compares ReadCommitHeader with go-git's decoding of h.
func checkHeader(t *testing.T, o *Objects, repo *git.Repository, h plumbing.Hash) {
	t.Helper()
	c, err := repo.CommitObject(h)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := o.ReadCommitHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Tree != c.TreeHash || fmt.Sprint(ch.Parents) != fmt.Sprint(c.ParentHashes) || !ch.Committed.Equal(c.Committer.When) {
		t.Errorf("commit %s: header %+v, go-git decodes tree %s parents %v committed %s", h, ch, c.TreeHash, c.ParentHashes, c.Committer.When)
	}
}

// An id the repository lacks, or names an object of another type, is
// plumbing.ErrObjectNotFound, as go-git answers.
func TestObjectsNotFound(t *testing.T) {
	r := packedRepo(t, false)
	repo, err := git.PlainOpen(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	o := NewObjects(repo)
	defer o.Close()
	head, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	c, err := repo.CommitObject(head.Hash())
	if err != nil {
		t.Fatal(err)
	}
	parent := c.ParentHashes[0] // packed
	for _, h := range []plumbing.Hash{head.Hash(), parent} {
		if _, err := o.Read(h, plumbing.TreeObject); !errors.Is(err, plumbing.ErrObjectNotFound) {
			t.Errorf("commit %s read as a tree: %v, want ErrObjectNotFound", h, err)
		}
	}
	if _, err := o.Read(plumbing.NewHash(strings.Repeat("ab", 20)), plumbing.CommitObject); !errors.Is(err, plumbing.ErrObjectNotFound) {
		t.Errorf("a missing commit: %v, want ErrObjectNotFound", err)
	}
}

// A commit header as git writes it (with a signature, which holds blank
// continuation lines, and a time zone west of UTC) reads whole; one
// without a committer is left to go-git.
func TestParseCommitHeader(t *testing.T) {
	tree := strings.Repeat("1", 40)
	p1, p2 := strings.Repeat("2", 40), strings.Repeat("3", 40)
	raw := "tree " + tree + "\nparent " + p1 + "\nparent " + p2 +
		"\nauthor A <a@x> 1700000000 +0100\ncommitter C <c@x> 1700000123 -0430\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\nmessage\nparent " + strings.Repeat("4", 40) + "\n"
	ch, ok := parseCommitHeader([]byte(raw))
	if !ok {
		t.Fatal("not parsed")
	}
	sig := &object.Signature{}
	sig.Decode([]byte("C <c@x> 1700000123 -0430"))
	if ch.Tree.String() != tree || len(ch.Parents) != 2 || ch.Parents[1].String() != p2 || !ch.Committed.Equal(sig.When) {
		t.Errorf("parsed %+v", ch)
	}
	if _, offset := ch.Committed.Zone(); offset != -(4*3600 + 30*60) {
		t.Errorf("zone offset %d, want -4:30", offset)
	}
	if _, ok := parseCommitHeader([]byte("tree " + tree + "\nauthor A <a@x> 1700000000 +0100\n\nm\n")); ok {
		t.Error("a header without a committer parsed")
	}
}

// On the real history, the commits of the last release and their root
// trees read as go-git reads them.
func TestObjectsRealHistory(t *testing.T) {
	dir := os.Getenv("KEYFINDINGS_OPENCODE_REPO")
	if dir == "" {
		t.Skip("KEYFINDINGS_OPENCODE_REPO is unset: set it to a clone of opencode's history to read its pack")
	}
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	o := NewObjects(repo)
	defer o.Close()
	c, err := ResolveCommit(repo, "v1.18.3")
	if err != nil {
		t.Fatal(err)
	}
	iter := object.NewCommitPreorderIter(c, nil, nil)
	defer iter.Close()
	n := 0
	err = iter.ForEach(func(c *object.Commit) error {
		if n++; n > 300 {
			return io.EOF
		}
		checkHeader(t, o, repo, c.Hash)
		got, err := o.Read(c.TreeHash, plumbing.TreeObject)
		if err != nil {
			return err
		}
		obj, err := repo.Storer.EncodedObject(plumbing.TreeObject, c.TreeHash)
		if err != nil {
			return err
		}
		if !bytes.Equal(got, readAll(t, obj)) {
			t.Errorf("tree %s of %s differs from go-git's", c.TreeHash, c.Hash)
		}
		return nil
	})
	if err != nil && err != io.EOF {
		t.Fatal(err)
	}
}

// A packed blob larger than Objects inflates is read as go-git reads it,
// so a snapshot refuses it with TooLargeError (a record problem), not a
// failed read.
func TestPackedBlobOverObjectsLimit(t *testing.T) {
	r := gittest.New(t)
	r.Write("big.bin", make([]byte, maxObjectSize+10))
	r.Write("small.txt", []byte("hi\n"))
	r.Commit("big")
	if err := r.Repo.RepackObjects(&git.RepackConfig{}); err != nil {
		t.Fatal(err)
	}
	_, at, err := openAt(t, Options{Repo: r.Dir, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := at.Snapshot.ReadFile("big.bin"); !errors.As(err, new(*TooLargeError)) {
		t.Fatalf("ReadFile big.bin: %v (%T), want *TooLargeError", err, err)
	}
	if f, err := at.Snapshot.ReadFile("small.txt"); err != nil || string(f.Data) != "hi\n" {
		t.Fatalf("ReadFile small.txt: %v, %v", f, err)
	}
}
