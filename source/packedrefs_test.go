package source

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/keyfindings/keyfindings/internal/gittest"
)

// Every reference name reads through the packed-refs table as go-git
// reads it from the files: packed only, loose only, loose over packed,
// the first of two packed lines, peeled lines skipped, missing names,
// names go-git refuses, HEAD; and a packed-refs file changed after the
// first lookup is read again.
func TestPackedRefsReadAsGoGit(t *testing.T) {
	r := gittest.New(t)
	a := r.Commit("a")
	b := r.Commit("b")
	r.Tag("v1.0.1") // an annotated tag, loose
	c := r.Commit("c")
	packed := fmt.Sprintf("# pack-refs with: peeled fully-peeled sorted \n"+
		"%[1]s refs/heads/both\n"+
		"%[1]s refs/heads/packed-only\n"+
		"%[2]s refs/tags/v1.0.0\n"+
		"^%[1]s\n"+
		"%[1]s refs/tags/v1.0.0\n"+
		"%[3]s refs/tags/v0.9+build\n", a, b, c)
	writePacked := func(s string) {
		t.Helper()
		p := filepath.Join(r.Dir, ".git", packedRefsFile)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writePacked(packed)
	r.Branch("both", c) // loose, over the packed line

	plain, err := git.PlainOpen(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	opened, err := git.PlainOpen(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := withSmallCache(opened)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ours.Storer.(*packStorage); !ok {
		t.Fatalf("storage is %T, want *packStorage", ours.Storer)
	}
	names := []string{
		"refs/heads/both", "refs/heads/packed-only", "refs/heads/master",
		"refs/tags/v1.0.0", "refs/tags/v1.0.1", "refs/tags/v0.9+build",
		"refs/tags/v2.0.0", "refs/heads/nope", "refs/tags", "refs/tags/",
		"refs/tags/../HEAD", "refs/tags/.hidden", "HEAD", "v1.0.0", "refs/x/y z",
	}
	check := func(when string) {
		t.Helper()
		for _, n := range names {
			want, wantErr := plain.Reference(plumbing.ReferenceName(n), false)
			got, gotErr := ours.Reference(plumbing.ReferenceName(n), false)
			if fmt.Sprint(want) != fmt.Sprint(got) || fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
				t.Errorf("%s: %s: got %v, %v; go-git reads %v, %v", when, n, got, gotErr, want, wantErr)
			}
		}
	}
	check("first read")
	if ref, err := ours.Reference("refs/heads/packed-only", false); err != nil || ref.Hash().String() != a {
		t.Fatalf("packed-only reads %v, %v; want %s", ref, err, a)
	}

	// A new packed reference, with the file's time moved on.
	writePacked(packed + fmt.Sprintf("%s refs/tags/v2.0.0\n", b))
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(r.Dir, ".git", packedRefsFile), later, later); err != nil {
		t.Fatal(err)
	}
	names = append(names, "refs/tags/v2.0.0")
	check("after packed-refs changed")
	if ref, err := ours.Reference("refs/tags/v2.0.0", false); err != nil || ref.Hash().String() != b {
		t.Fatalf("v2.0.0 reads %v, %v after packed-refs changed; want %s", ref, err, b)
	}

	// No packed-refs file at all.
	if err := os.Remove(filepath.Join(r.Dir, ".git", packedRefsFile)); err != nil {
		t.Fatal(err)
	}
	check("without packed-refs")
}
