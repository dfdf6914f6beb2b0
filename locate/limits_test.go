package locate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/internal/gittest"
	"github.com/keyfindings/keyfindings/source"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/keyfindings/keyfindings/findings"
)

const routingPath = "packages/opencode/src/session/system.ts"

// writeRouting writes src as the routing fixture's file in a fresh tree.
func writeRouting(t *testing.T, src []byte) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, filepath.FromSlash(routingPath))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

const provider = "export function provider(model: { id: string }) {\n  if (model.id.includes(\"a\")) return [A]\n  return [B]\n}\n"

// TestHostileSources feeds files that stress the parser and the line
// arithmetic; each must give a record (located or reported), never a panic,
// and a located one must hash exactly its lines.
func TestHostileSources(t *testing.T) {
	nested := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n"
	var long strings.Builder
	for i := 0; i < 50_000; i++ {
		long.WriteString("const v")
		long.WriteString(strings.Repeat("x", i%7))
		long.WriteString(" = 1\n")
	}
	tests := []struct {
		name string
		src  string
		line int // expected first line of the located span; 0: not located
	}{
		{"100000 nested brackets before", "const deep = " + nested + provider, 2},
		{"100000 nested brackets unclosed", "const deep = " + strings.Repeat("(", 100_000) + "\n" + provider, 0},
		{"100000 siblings", "const wide = [" + strings.Repeat("1,", 100_000) + "]\n" + provider, 2},
		{"50000 lines before", long.String() + provider, 50_001},
		{"NUL bytes", "const s = \"\x00\x00\"\n" + provider + "\x00", 2},
		{"invalid UTF-8", "// \xc3\x28 \xff\n" + provider, 2},
		{"CRLF", strings.ReplaceAll(provider, "\n", "\r\n"), 1},
		{"BOM", "\ufeff" + provider, 1},
		{"empty", "", 0},
		{"only newlines", "\n\n\n", 0},
	}
	x := loadDefs(t, "../testdata/extract/defs")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeRouting(t, []byte(tt.src))
			r := extractDir(t, x, dir).Find("routing")
			if tt.line == 0 {
				if r.Located() {
					t.Logf("located at %+v (allowed: the parser recovered)", r.Location.Lines)
				} else if r.Problem == nil || *r.Problem == "" {
					t.Errorf("%s without a reason", r.Status)
				}
				return
			}
			if !r.Located() {
				t.Fatalf("status %s: %s", r.Status, deref(r.Problem))
			}
			if r.Location.Lines.Start != tt.line {
				t.Errorf("start line %d, want %d", r.Location.Lines.Start, tt.line)
			}
			want := sedLines([]byte(tt.src), r.Location.Lines.Start, r.Location.Lines.End)
			sum := sha256.Sum256(want)
			if r.Location.SHA256 != hex.EncodeToString(sum[:]) {
				t.Error("sha256 is not over the cited lines")
			}
		})
	}
}

func TestMemoryBoundedOnLargeFile(t *testing.T) {
	// A large file (half the limit): read and parsed, with memory in proportion.
	src := bytes.Repeat([]byte("const x = [1, 2, 3]\n"), source.MaxBlobSize/2/20)
	src = append(src, provider...)
	dir := writeRouting(t, src)
	x := loadDefs(t, "../testdata/extract/defs")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := extractDir(t, x, dir).Find("routing")
	runtime.ReadMemStats(&after)
	if !r.Located() {
		t.Fatalf("status %s: %s", r.Status, deref(r.Problem))
	}
	// The bound is loose on purpose: it catches a blow-up (a copy per
	// line, a quadratic index), not ordinary overhead.
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 16*source.MaxBlobSize {
		t.Errorf("Go heap grew by %d MiB for a 4 MiB file", grown>>20)
	}
}

func TestSymlinkAtFindingPath(t *testing.T) {
	// Plain directory: a link to a file outside the tree is reported,
	// not followed.
	outside := filepath.Join(t.TempDir(), "secret.ts")
	os.WriteFile(outside, []byte(provider), 0o644)
	dir := t.TempDir()
	p := filepath.Join(dir, filepath.FromSlash(routingPath))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.Symlink(outside, p); err != nil {
		t.Skip("no symlinks here:", err)
	}
	x := loadDefs(t, "../testdata/extract/defs")
	r := extractDir(t, x, dir).Find("routing")
	if r.Located() || !strings.Contains(deref(r.Problem), "symbolic link") {
		t.Errorf("status %s problem %q, want the link reported", r.Status, deref(r.Problem))
	}
	// A linked directory on the way is not followed either.
	dir2 := t.TempDir()
	os.MkdirAll(filepath.Join(dir2, "packages/opencode/src"), 0o755)
	real := filepath.Join(t.TempDir(), "session")
	os.MkdirAll(real, 0o755)
	os.WriteFile(filepath.Join(real, "system.ts"), []byte(provider), 0o644)
	os.Symlink(real, filepath.Join(dir2, "packages/opencode/src/session"))
	r = extractDir(t, x, dir2).Find("routing")
	if r.Located() || !strings.Contains(deref(r.Problem), "symbolic link") {
		t.Errorf("linked directory: status %s problem %q", r.Status, deref(r.Problem))
	}

	// Git: a symlink entry is read as the link, never resolved.
	repo := gittest.New(t)
	repo.CopyTree(fixtureTree)
	repo.Commit("fixture")
	head, _ := repo.Repo.Head()
	c, _ := repo.Repo.CommitObject(head.Hash())
	snap := linkSnapshot(t, repo, c, routingPath, "../../../../../etc/passwd")
	res, err := x.Extract(snap, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	r = res.Document.Find("routing")
	if r.Located() || !strings.Contains(deref(r.Problem), "symbolic link") || !strings.Contains(deref(r.Problem), "etc/passwd") {
		t.Errorf("git symlink: status %s problem %q", r.Status, deref(r.Problem))
	}
}

// linkSnapshot returns a snapshot of c in which path is a symlink to target.
func linkSnapshot(t *testing.T, r *gittest.Repo, c *object.Commit, path, target string) source.Snapshot {
	t.Helper()
	bh := r.Blob(target)
	tree, _ := c.Tree()
	newRoot := replaceEntry(t, r, tree, strings.Split(path, "/"), object.TreeEntry{Name: filepath.Base(path), Mode: filemode.Symlink, Hash: bh})
	return snapshotOf(r, r.RawCommit("link at "+path, newRoot))
}

func replaceEntry(t *testing.T, r *gittest.Repo, tree *object.Tree, parts []string, leaf object.TreeEntry) plumbing.Hash {
	t.Helper()
	var entries []object.TreeEntry
	for _, e := range tree.Entries {
		if e.Name != parts[0] {
			entries = append(entries, e)
			continue
		}
		if len(parts) == 1 {
			entries = append(entries, leaf)
			continue
		}
		sub, err := tree.Tree(e.Name)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, object.TreeEntry{Name: e.Name, Mode: filemode.Dir, Hash: replaceEntry(t, r, sub, parts[1:], leaf)})
	}
	return r.Tree(entries)
}

var _ = findings.StatusLocated

// TestUnsearchableInTreeSearch puts a hostile file holding the query's
// anchors beside a moved finding: the tree search skips it quickly and
// still finds the real one.
func TestUnsearchableInTreeSearch(t *testing.T) {
	dir := t.TempDir()
	write := func(p, src string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(src), 0o644)
	}
	write("packages/core/src/session/system.ts", provider)
	write("packages/core/src/session/hostile.ts", "// provider includes\nconst deep = "+strings.Repeat("(", 100_000)+"\n")
	x := loadDefs(t, "../testdata/extract/defs")
	r := extractDir(t, x, dir).Find("routing")
	if !r.Located() || r.Location.Path != "packages/core/src/session/system.ts" {
		t.Fatalf("status %s path %v: %s", r.Status, r.Location.Path, deref(r.Problem))
	}
}

// TestControlCharacterNames: a tree may hold entries whose names git
// accepts but no path can be (a real fork of opencode has a blob named
// "use std::sync::Arc;\n"). The tree search skips them, says so on the
// records it produces, and every other finding is still located.
func TestControlCharacterNames(t *testing.T) {
	repo := gittest.New(t)
	repo.CopyTree(fixtureTree)
	// The routing file moved, so finding it needs the tree search.
	src, err := os.ReadFile(filepath.Join(fixtureTree, filepath.FromSlash(routingPath)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(repo.Dir, filepath.FromSlash(routingPath))); err != nil {
		t.Fatal(err)
	}
	repo.Write("packages/core/src/session/system.ts", src)
	repo.Commit("moved")
	head, _ := repo.Repo.Head()
	c, _ := repo.Repo.CommitObject(head.Hash())
	tree, _ := c.Tree()

	// Add, with go-git's plumbing, a blob named with a newline at the
	// top and a directory named with an escape sequence holding a .ts
	// file that would match the query.
	bad := repo.Tree([]object.TreeEntry{{Name: "system.ts", Mode: filemode.Regular, Hash: repo.Blob(string(src))}})
	entries := append([]object.TreeEntry{
		{Name: "bad\x1b[31mdir", Mode: filemode.Dir, Hash: bad},
		{Name: "use std::sync::Arc;\n", Mode: filemode.Regular, Hash: repo.Blob("x")},
	}, tree.Entries...)
	snap := snapshotOf(repo, repo.RawCommit("control characters", repo.Tree(entries)))

	var listed []string
	skipped, err := snap.Walk(func(e source.Entry) error { listed = append(listed, e.Path); return nil })
	if err != nil {
		t.Fatalf("walk stopped at a bad name: %v", err)
	}
	want := []string{`"bad\x1b[31mdir"`, `"use std::sync::Arc;\n"`}
	if strings.Join(skipped, " ") != strings.Join(want, " ") {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
	for _, p := range listed {
		if strconv.Quote(p) != `"`+p+`"` {
			t.Errorf("walk listed %q", p)
		}
	}

	x := loadDefs(t, "../testdata/extract/defs")
	res, err := x.Extract(snap, Meta{})
	if err != nil {
		t.Fatalf("extract: %v", err)
	}
	r := res.Document.Find("routing")
	if !r.Located() || r.Location.Path != "packages/core/src/session/system.ts" {
		t.Fatalf("routing: status %s path %v: %s", r.Status, r.Location.Path, deref(r.Problem))
	}
	note := strings.Join(r.Warnings, "\n")
	if !strings.Contains(note, `"use std::sync::Arc;\n"`) || !strings.Contains(note, `"bad\x1b[31mdir"`) {
		t.Errorf("routing warnings %q do not name the skipped entries", r.Warnings)
	}
	for _, d := range res.Document.Findings {
		if d.Located() && d.Location.MovedFrom == "" && len(d.Warnings) > 0 {
			t.Errorf("%s: a finding at its own path got warnings %q", d.ID, d.Warnings)
		}
	}
}

// TestControlCharacterNamesInDirectory: the same for plain files.
func TestControlCharacterNamesInDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "use std::sync::Arc;\n"), []byte("x"), 0o644); err != nil {
		t.Skip("this filesystem refuses a newline in a name:", err)
	}
	os.WriteFile(filepath.Join(dir, "ok.ts"), []byte("x"), 0o644)
	var listed []string
	skipped, err := source.NewDirSnapshot(dir).Walk(func(e source.Entry) error { listed = append(listed, e.Path); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0] != `"use std::sync::Arc;\n"` || len(listed) != 1 || listed[0] != "ok.ts" {
		t.Errorf("skipped %q listed %q", skipped, listed)
	}
}
