package history

import (
	"bytes"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/keyfindings/keyfindings/internal/gittest"
	"github.com/keyfindings/keyfindings/source"
)

// TestDiffTreesGitOrder checks the tree merge against names whose order
// depends on git's rule that a directory sorts as if it ended in "/":
// "a" (a directory) sorts after "a-b.ts" and "a.ts" but before "a0.ts".
// Listing an unchanged blob (k.ts's) is as wrong as missing one.
func TestDiffTreesGitOrder(t *testing.T) {
	r := gittest.New(t)
	blob := func(s string) object.TreeEntry { return object.TreeEntry{Mode: filemode.Regular, Hash: r.Blob(s)} }
	named := func(name string, e object.TreeEntry) object.TreeEntry { e.Name = name; return e }
	dir := func(name string, es ...object.TreeEntry) object.TreeEntry {
		return object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: r.Tree(es)}
	}
	same, keep, old, changed, gone, added := blob("same"), blob("keep"), blob("old"), blob("new"), blob("gone"), blob("added")
	was, now, dropped := blob("file c.ts"), blob("inside c.ts/"), blob("dropped")
	a := r.Tree([]object.TreeEntry{
		named("a-b.ts", gone),
		named("a.ts", dropped),
		dir("a", named("x.ts", old), named("k.ts", keep)),
		named("a0.ts", same),
		named("c.ts", was),
		named("notes.md", old),
	})
	b := r.Tree([]object.TreeEntry{
		dir("a", named("x.ts", changed), named("k.ts", keep), named("y.tsx", added)),
		named("a0.ts", same),
		dir("c.ts", named("d.ts", now)),
		named("notes.md", changed),
	})
	objs := source.NewObjects(r.Repo)
	var got []plumbing.Hash
	if err := diffTrees(objs, a, b, &got); err != nil {
		t.Fatal(err)
	}
	want := []plumbing.Hash{gone.Hash, dropped.Hash, old.Hash, changed.Hash, added.Hash, was.Hash, now.Hash}
	slices.SortFunc(got, func(x, y plumbing.Hash) int { return bytes.Compare(x[:], y[:]) })
	slices.SortFunc(want, func(x, y plumbing.Hash) int { return bytes.Compare(x[:], y[:]) })
	if !slices.Equal(got, want) {
		t.Errorf("diffTrees listed %v, want %v (the .ts/.tsx blobs removed, changed or added, on both sides)", got, want)
	}
	// Both ways, and nothing between equal trees.
	var back []plumbing.Hash
	if err := diffTrees(objs, b, a, &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != len(want) {
		t.Errorf("b→a listed %d blobs, want %d", len(back), len(want))
	}
	var none []plumbing.Hash
	if err := diffTrees(objs, a, a, &none); err != nil || len(none) != 0 {
		t.Errorf("equal trees: %v, %v; want nothing", none, err)
	}
}

// TestDiffTreesOutOfOrder checks that a tree whose entries are not in
// git's order (git fsck refuses it, but a pack may hold one) lists too
// much, never too little.
func TestDiffTreesOutOfOrder(t *testing.T) {
	r := gittest.New(t)
	x, y, z := r.Blob("x"), r.Blob("y"), r.Blob("z")
	sorted := r.Tree([]object.TreeEntry{{Name: "a.ts", Mode: filemode.Regular, Hash: x}, {Name: "b.ts", Mode: filemode.Regular, Hash: y}})
	// Encoded as given, b.ts before a.ts, with a.ts changed.
	o := r.Repo.Storer.NewEncodedObject()
	o.SetType(plumbing.TreeObject)
	w, _ := o.Writer()
	w.Write(append(append([]byte("100644 b.ts\x00"), y[:]...), append([]byte("100644 a.ts\x00"), z[:]...)...))
	w.Close()
	unsorted, err := r.Repo.Storer.SetEncodedObject(o)
	if err != nil {
		t.Fatal(err)
	}
	var got []plumbing.Hash
	if err := diffTrees(source.NewObjects(r.Repo), sorted, unsorted, &got); err != nil {
		t.Fatal(err)
	}
	for _, h := range []plumbing.Hash{x, z} {
		if !slices.Contains(got, h) {
			t.Errorf("diffTrees listed %v: missing %v, a blob of the changed a.ts", got, h)
		}
	}
}

// TestPathDiff: a path differs when its entry (id, mode, or none) does;
// paths under a directory equal on both sides are not looked up.
func TestPathDiff(t *testing.T) {
	r := gittest.New(t)
	blob := func(name, s string) object.TreeEntry {
		return object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: r.Blob(s)}
	}
	dir := func(name string, es ...object.TreeEntry) object.TreeEntry {
		return object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: r.Tree(es)}
	}
	lib := dir("lib", blob("x.ts", "x"))
	a := r.Tree([]object.TreeEntry{lib, dir("src", blob("a.ts", "a"), blob("b.ts", "b"), blob("gone.ts", "g"), blob("mode.ts", "m"))})
	exec := blob("mode.ts", "m")
	exec.Mode = filemode.Executable
	b := r.Tree([]object.TreeEntry{lib, dir("src", blob("a.ts", "a2"), blob("b.ts", "b"), exec, blob("new.ts", "n"))})
	w := &walker{objs: source.NewObjects(r.Repo), dirs: map[treeName]object.TreeEntry{}}
	d := (&pathDiff{}).at(b, a)
	for p, want := range map[string]bool{
		"src/a.ts": true, "src/b.ts": false, "src/gone.ts": true, "src/new.ts": true,
		"src/mode.ts": true, "src/none.ts": false, "lib/x.ts": false, "lib/y.ts": false, "other/z.ts": false,
	} {
		got, err := d.differs(w, p)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s differs = %v, want %v", p, got, want)
		}
	}
	// lib is equal on both sides: nothing below it was looked up.
	for k := range w.dirs {
		if k.tree == lib.Hash {
			t.Errorf("looked up %q inside lib, which is the same on both sides", k.name)
		}
	}
	// Another pair of trees forgets the answers.
	if got, _ := d.at(a, a).differs(w, "src/a.ts"); got {
		t.Error("src/a.ts differs between a tree and itself")
	}
}
