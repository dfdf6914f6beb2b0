package source

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/keyfindings/keyfindings/internal/gittest"
)

// TestWalkSkipsControlCharacterNames: a tree entry whose name cannot be a
// path (a newline, an escape sequence) is skipped and named, quoted; what
// lies below a bad directory goes with it; the rest is listed; and the
// cache's completeness check, which is about objects, still passes.
func TestWalkSkipsControlCharacterNames(t *testing.T) {
	r := gittest.New(t)
	x := r.Blob("x")
	bad := r.Tree([]object.TreeEntry{{Name: "system.ts", Mode: filemode.Regular, Hash: x}})
	src := r.Tree([]object.TreeEntry{{Name: "ok.ts", Mode: filemode.Regular, Hash: x}})
	root := r.Tree([]object.TreeEntry{
		{Name: "bad\x1b[31mdir", Mode: filemode.Dir, Hash: bad},
		{Name: "use std::sync::Arc;\n", Mode: filemode.Regular, Hash: x},
		{Name: "src", Mode: filemode.Dir, Hash: src},
	})
	c, err := r.Repo.CommitObject(plumbing.NewHash(r.RawCommit("control characters", root)))
	if err != nil {
		t.Fatal(err)
	}
	snap, err := NewGitSnapshot(r.Repo, c)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	skipped, err := snap.Walk(func(e Entry) error { listed = append(listed, e.Path); return nil })
	if err != nil {
		t.Fatalf("walk stopped at a bad name: %v", err)
	}
	if got, want := strings.Join(skipped, " "), `"bad\x1b[31mdir" "use std::sync::Arc;\n"`; got != want {
		t.Errorf("skipped %s, want %s", got, want)
	}
	if strings.Join(listed, " ") != "src/ok.ts" {
		t.Errorf("listed %q, want only src/ok.ts", listed)
	}
	tree, err := c.Tree()
	if err != nil {
		t.Fatal(err)
	}
	if !completeTree(tree) {
		t.Error("a tree with a control-character name counts as damaged")
	}
}
