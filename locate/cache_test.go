package locate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/gittest"
	"github.com/keyfindings/keyfindings/source"
)

// The tests in this file check that reusing work never changes a result:
// the same documents come out of a fresh Extractor per snapshot, of one
// Extractor shared by all snapshots (in order, concurrently, through
// ExtractMany) and of a later Extractor reading the disk cache.

const catalogTree = "../testdata/catalog"

// history is a git repository of the catalog fixture over a few commits
// that exercise what cached records depend on.
type history struct {
	repo  *gittest.Repo
	names []string
	snaps []source.Snapshot
}

func newHistory(t *testing.T) *history {
	t.Helper()
	h := &history{repo: gittest.New(t)}
	r := h.repo
	r.CopyTree(catalogTree)
	h.add("base")

	// An unrelated edit to one cited file; a prompt file a definition
	// cites whole (file:) changes while the file its query matches does
	// not.
	bash := readFixture(t, "packages/core/src/tool/bash.ts")
	r.Write("packages/core/src/tool/bash.ts", append(bash, "// trailing note\n"...))
	r.Write("packages/opencode/src/session/prompt/alpha.txt", []byte("A different alpha prompt.\n"))
	h.add("edit")

	// One file moves (found by the tree search), one goes away.
	r.Remove("packages/core/src/tool/glob.ts")
	r.Write("packages/core/src/tools/glob.ts", readFixture(t, "packages/core/src/tool/glob.ts"))
	r.Remove("packages/core/src/tool/question.ts")
	h.add("move")

	// Back to the first tree: everything is as in "base".
	r.Remove("packages/core/src/tools/glob.ts")
	r.CopyTree(catalogTree)
	h.add("revert")
	return h
}

func readFixture(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(catalogTree, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func (h *history) add(name string) {
	h.repo.T.Helper()
	c := h.repo.Commit(name)
	commit, err := source.ResolveCommit(h.repo.Repo, c)
	if err != nil {
		h.repo.T.Fatal(err)
	}
	snap, err := source.NewGitSnapshot(h.repo.Repo, commit)
	if err != nil {
		h.repo.T.Fatal(err)
	}
	h.names = append(h.names, name)
	h.snaps = append(h.snaps, snap)
}

func (h *history) meta(i int) Meta {
	return Meta{Repo: "https://github.com/example/opencode", Ref: h.names[i], WebURL: "https://github.com/example/opencode"}
}

func compileCatalog(t testing.TB, opts CompileOptions) *Extractor {
	t.Helper()
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	x, err := CompileWith(cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func marshal(t testing.TB, res *Result) []byte {
	t.Helper()
	data, err := res.Document.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// reference extracts each snapshot with an Extractor of its own.
func (h *history) reference(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	for i, s := range h.snaps {
		res, err := compileCatalog(t, CompileOptions{}).Extract(s, h.meta(i))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, marshal(t, res))
	}
	return out
}

func sameDocs(t *testing.T, what string, h *history, want, got [][]byte) {
	t.Helper()
	for i := range want {
		if !bytes.Equal(want[i], got[i]) {
			t.Errorf("%s: %s differs from a fresh Extractor's document:\n%s", what, h.names[i], firstDiff(want[i], got[i]))
		}
	}
}

func firstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n  want %s\n  got  %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(lb), len(la))
}

func TestHistoryFixture(t *testing.T) {
	h := newHistory(t)
	docs := h.reference(t)
	find := func(i int, id string) *findings.Record {
		doc, err := findings.DecodeDocument(docs[i], h.names[i])
		if err != nil {
			t.Fatal(err)
		}
		r := doc.Find(id)
		if r == nil {
			t.Fatalf("%s: no record %s", h.names[i], id)
		}
		return r
	}
	// The fixture history does what its commits say, so the tests below
	// compare documents that exercise each kind of input.
	if r := find(0, "tool-result-glob"); !r.Located() || r.Location.MovedFrom != "" {
		t.Fatalf("base: glob %s, moved_from %v", r.Status, r.Location.MovedFrom)
	}
	if r := find(2, "tool-result-glob"); !r.Located() || r.Location.MovedFrom == "" || r.Location.Path != "packages/core/src/tools/glob.ts" {
		t.Fatalf("move: glob %s at %v, moved_from %v; want located at the new path", r.Status, r.Location.Path, r.Location.MovedFrom)
	}
	if r := find(2, "tool-result-question"); r.Located() {
		t.Fatalf("move: question located at %s, want it gone", r.Location.Path)
	}
	if a, b := find(0, "system-prompt-files-prompt-alpha-txt"), find(1, "system-prompt-files-prompt-alpha-txt"); a.Location.SHA256 == b.Location.SHA256 {
		t.Fatal("edit: the alpha prompt's record did not change")
	}
	// revert has base's tree: its document differs only in the commit.
	if a, b := stripCommits(docs[0], h, 0), stripCommits(docs[3], h, 3); a != b {
		t.Fatalf("revert: document differs from base beyond the commit:\n%s", firstDiff([]byte(a), []byte(b)))
	}
}

func stripCommits(doc []byte, h *history, i int) string {
	s := strings.ReplaceAll(string(doc), h.snaps[i].Commit(), "COMMIT")
	s = strings.ReplaceAll(s, `"ref": "`+h.names[i]+`"`, `"ref": "REF"`)
	c := h.snaps[i].CommittedAt().UTC().Format("2006-01-02T15:04:05Z")
	return strings.ReplaceAll(s, c, "TIME")
}

func TestSharedExtractorSameOutput(t *testing.T) {
	h := newHistory(t)
	want := h.reference(t)
	x := compileCatalog(t, CompileOptions{})
	var got [][]byte
	var located []int64
	for i, s := range h.snaps {
		before := x.Stats().Located
		res, err := x.Extract(s, h.meta(i))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, marshal(t, res))
		located = append(located, x.Stats().Located-before)
	}
	sameDocs(t, "one Extractor in order", h, want, got)
	n := int64(len(x.defs))
	if located[0] != n {
		t.Errorf("base: %d definitions located afresh, want all %d", located[0], n)
	}
	// edit changes bash.ts and a prompt file: tool-result-bash and
	// system-prompt-files are located again, nothing else.
	if located[1] != 2 {
		t.Errorf("edit: %d definitions located afresh, want 2 (the edited file's and the prompt files')", located[1])
	}
	if located[3] != 0 {
		t.Errorf("revert: %d definitions located afresh, want 0 (every input as in base)", located[3])
	}
}

func TestExtractManySameOutput(t *testing.T) {
	h := newHistory(t)
	want := h.reference(t)
	x := compileCatalog(t, CompileOptions{})
	var jobs []Job
	for i, s := range h.snaps {
		jobs = append(jobs, Job{Snapshot: s, Meta: h.meta(i)})
	}
	results, err := x.ExtractMany(jobs)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]byte
	for _, res := range results {
		got = append(got, marshal(t, res))
	}
	sameDocs(t, "ExtractMany", h, want, got)
}

// TestConcurrentExtractDeterministic runs many Extract calls on one
// Extractor at once, in varying order; every document must be the one a
// fresh Extractor gives. Run with -race, it also checks that tree-sitter
// and go-git objects are not shared between goroutines unguarded.
func TestConcurrentExtractDeterministic(t *testing.T) {
	h := newHistory(t)
	want := h.reference(t)
	x := compileCatalog(t, CompileOptions{})
	const rounds = 3
	got := make([][]byte, rounds*len(h.snaps))
	errs := make([]error, len(got))
	var wg sync.WaitGroup
	for k := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			i := (k*7 + k/len(h.snaps)) % len(h.snaps)
			res, err := x.Extract(h.snaps[i], h.meta(i))
			if err != nil {
				errs[k] = err
				return
			}
			data, err := res.Document.Marshal()
			got[k], errs[k] = data, err
			if !bytes.Equal(data, want[i]) {
				errs[k] = fmt.Errorf("%s: differs from a fresh Extractor's document:\n%s", h.names[i], firstDiff(want[i], data))
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	// When every call has ended no tree has a user, and those kept are
	// the recent ones, within the budget.
	checkParsesReleased(t, x.parses)
}

// checkParsesReleased fails unless, with no call in flight, every tree c
// keeps is among the recently released ones, within c's budget.
func checkParsesReleased(t *testing.T, c *parseCache) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	size := 0
	for _, e := range c.files {
		if e.users != 0 || e.recent == nil {
			t.Errorf("parse tree %q has %d users and recent=%v after every Extract returned", e.key, e.users, e.recent != nil)
		}
		size += e.size()
	}
	if c.recent.Len() != len(c.files) || size != c.recentBytes || size > c.keep {
		t.Errorf("%d trees kept, %d listed as recent, %d bytes of source (counted %d), budget %d", len(c.files), c.recent.Len(), size, c.recentBytes, c.keep)
	}
}

// TestParseTreesKeptWithinBudget: trees no call holds are kept, most
// recently released first, up to the budget of source bytes; a tree kept
// is not parsed again, one dropped is.
func TestParseTreesKeptWithinBudget(t *testing.T) {
	c := newParseCache()
	file := func(blob string, n int) *source.File {
		return &source.File{Path: "src/" + blob + ".ts", Blob: blob, Data: bytes.Repeat([]byte("let a = 1;\n"), n/11)}
	}
	use := func(f *source.File) {
		e := c.acquire(f)
		if err := c.parse(e, f); err != nil {
			t.Fatal(err)
		}
		c.release(e)
	}
	c.keep = 3000
	a, b, d := file("a", 1100), file("b", 1100), file("d", 1100)
	use(a)
	use(b)
	use(a) // kept: not parsed again, and now the most recent
	if n := c.parses.Load(); n != 2 {
		t.Fatalf("parsed %d times, want 2 (a kept after its first call)", n)
	}
	use(d) // over the budget: b, the least recent, goes
	checkParsesReleased(t, c)
	use(b)
	if n := c.parses.Load(); n != 4 {
		t.Errorf("parsed %d times, want 4 (b dropped, then parsed again)", n)
	}
	use(d) // b pushed a out; d is kept
	if n := c.parses.Load(); n != 4 {
		t.Errorf("parsed %d times, want 4 (d kept)", n)
	}
	big := file("big", 4000)
	use(big) // larger than the whole budget: freed at once
	c.mu.Lock()
	_, kept := c.files[parseKey(big)]
	c.mu.Unlock()
	if kept {
		t.Error("a tree whose source exceeds the budget was kept")
	}
	checkParsesReleased(t, c)
}

// TestParsedOncePerBlob: within an Extract a blob is parsed once, however
// many definitions read it; a later snapshot parses only for the
// definitions it locates afresh, so one that holds what an earlier one
// held (the last of the history) parses nothing.
func TestParsedOncePerBlob(t *testing.T) {
	h := newHistory(t)
	x := compileCatalog(t, CompileOptions{})
	for i, s := range h.snaps {
		before := x.Stats().Parses
		res, err := x.Extract(s, h.meta(i))
		if err != nil {
			t.Fatal(err)
		}
		blobs := map[string]bool{}
		for _, p := range queriedPaths(x, res) {
			f, err := s.ReadFile(p)
			if err == nil {
				blobs[f.Blob] = true
			}
		}
		got := x.Stats().Parses - before
		switch {
		case i == 0 && got != int64(len(blobs)):
			t.Errorf("%s: %d trees parsed for %d distinct TypeScript blobs, want one each", h.names[i], got, len(blobs))
		case got > int64(len(blobs)):
			t.Errorf("%s: %d trees parsed for %d distinct TypeScript blobs, want at most one each", h.names[i], got, len(blobs))
		case i == len(h.snaps)-1 && got != 0:
			t.Errorf("%s: %d trees parsed, want none: every record was computed at %s", h.names[i], got, h.names[0])
		}
	}
}

// queriedPaths lists the TypeScript files a document's records were
// found in or searched: the definitions' paths and moved records' paths.
// Prompt files cited whole are not parsed.
func queriedPaths(x *Extractor, res *Result) []string {
	var out []string
	for _, cd := range x.defs {
		out = append(out, cd.paths()...)
	}
	for _, r := range res.Document.Findings {
		if r.Location != nil && r.Location.MovedFrom != "" {
			out = append(out, r.Location.Path)
		}
	}
	return out
}

func TestDiskCache(t *testing.T) {
	h := newHistory(t)
	want := h.reference(t)
	dir := t.TempDir()
	extractAll := func(what string) (*Extractor, [][]byte) {
		t.Helper()
		x := compileCatalog(t, CompileOptions{CacheDir: dir})
		var got [][]byte
		for i, s := range h.snaps {
			res, err := x.Extract(s, h.meta(i))
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, marshal(t, res))
		}
		sameDocs(t, what, h, want, got)
		return x, got
	}
	x, _ := extractAll("first run, empty cache")
	if st := x.Stats(); st.Located == 0 {
		t.Fatalf("first run: nothing located afresh (%+v)", st)
	}
	entries := cacheEntries(t, dir)
	if len(entries) == 0 {
		t.Fatal("first run wrote no cache entries")
	}

	// A second process (a new Extractor) finds every result on disk and
	// parses nothing.
	x, _ = extractAll("second run, warm cache")
	if st := x.Stats(); st.Located != 0 || st.Parses != 0 {
		t.Errorf("second run: %+v, want everything reused and nothing parsed", st)
	}

	// Damaged entries are ignored and rewritten.
	for i, e := range entries {
		var data []byte
		switch i % 4 {
		case 0:
			data = []byte("{not json")
		case 1:
			data = nil
		case 2:
			data = []byte(`{"format":"keyfindings/locate-cache/1","key":"another","deps":[],"records":[]}`)
		case 3:
			old, err := os.ReadFile(e)
			if err != nil {
				t.Fatal(err)
			}
			data = old[:len(old)/2]
		}
		if err := os.WriteFile(e, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	x, _ = extractAll("third run, damaged cache")
	if st := x.Stats(); st.Located == 0 {
		t.Errorf("third run: %+v, want damaged entries located afresh", st)
	}
	x, _ = extractAll("fourth run, repaired cache")
	if st := x.Stats(); st.Located != 0 {
		t.Errorf("fourth run: %+v, want the rewritten entries reused", st)
	}

	// The cache may be deleted at any time.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	extractAll("after deleting the cache")
}

func TestDiskCacheQueries(t *testing.T) {
	dir := t.TempDir()
	x := compileCatalog(t, CompileOptions{CacheDir: dir})
	qs := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && filepath.Base(filepath.Dir(p)) == "queries" {
			qs++
		}
		return err
	})
	if qs == 0 {
		t.Fatal("no query entries written")
	}
	// A definition whose query never compiled is still rejected, with a
	// warm cache.
	bad := &findings.Catalog{Definitions: []*findings.Definition{{ID: "bad", Source: "bad.yaml", Path: "a.ts", Query: "(no_such_node) @finding"}}}
	if _, err := CompileWith(bad, CompileOptions{CacheDir: dir}); err == nil || !strings.Contains(err.Error(), "bad.yaml") {
		t.Errorf("CompileWith(bad) = %v, want an error naming bad.yaml", err)
	}
	_ = x
}

func cacheEntries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") && filepath.Base(filepath.Dir(p)) != "queries" {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPublishedRecordsIndependent checks that a caller changing a record it
// got cannot change what the next snapshot gets from the cache.
func TestPublishedRecordsIndependent(t *testing.T) {
	h := newHistory(t)
	x := compileCatalog(t, CompileOptions{})
	first, err := x.Extract(h.snaps[0], h.meta(0))
	if err != nil {
		t.Fatal(err)
	}
	want := marshal(t, first)
	for _, r := range first.Document.Findings {
		r.Facts["injected"] = true
		r.Warnings = append(r.Warnings, "injected")
		if r.Location != nil {
			r.Location.Path = "elsewhere"
		}
	}
	again, err := x.Extract(h.snaps[0], h.meta(0))
	if err != nil {
		t.Fatal(err)
	}
	if got := marshal(t, again); !bytes.Equal(got, want) {
		t.Errorf("a changed record leaked into the cache:\n%s", firstDiff(want, got))
	}
}

// countingSnapshot counts the calls into a snapshot.
type countingSnapshot struct {
	source.Snapshot
	mu           sync.Mutex
	walks, reads int
}

func (c *countingSnapshot) Walk(fn func(source.Entry) error) ([]string, error) {
	c.mu.Lock()
	c.walks++
	c.mu.Unlock()
	return c.Snapshot.Walk(fn)
}

func (c *countingSnapshot) ReadFile(p string) (*source.File, error) {
	c.mu.Lock()
	c.reads++
	c.mu.Unlock()
	return c.Snapshot.ReadFile(p)
}

func (c *countingSnapshot) FindEntry(p string) (string, error) {
	return c.Snapshot.(entryFinder).FindEntry(p)
}

// TestTreeSearchOncePerSnapshot gives several definitions files that do
// not exist: one walk serves them all, and the next snapshot with the same
// blobs reads none of them again to filter by anchors.
func TestTreeSearchOncePerSnapshot(t *testing.T) {
	h := newHistory(t)
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var moved []*findings.Definition
	for _, d := range cat.Definitions {
		c := *d
		c.Path = "packages/nowhere/" + path.Base(d.Path)
		c.Candidates = nil
		moved = append(moved, &c)
	}
	x, err := Compile(&findings.Catalog{Definitions: moved})
	if err != nil {
		t.Fatal(err)
	}
	first := &countingSnapshot{Snapshot: h.snaps[0]}
	res, err := x.Extract(first, h.meta(0))
	if err != nil {
		t.Fatal(err)
	}
	if first.walks != 1 {
		t.Errorf("%d walks for %d moved definitions, want 1", first.walks, len(moved))
	}
	located := 0
	for _, r := range res.Document.Findings {
		if r.Located() {
			located++
			if r.Location.MovedFrom == "" {
				t.Errorf("%s located without moved_from", r.ID)
			}
		}
	}
	if located == 0 {
		t.Fatal("the tree search found nothing")
	}
	// Same blobs again (revert is base's tree): the anchors are known by
	// blob id, so only the files that hold them are read.
	second := &countingSnapshot{Snapshot: h.snaps[3]}
	if _, err := x.Extract(second, h.meta(3)); err != nil {
		t.Fatal(err)
	}
	if second.walks != 1 || second.reads > first.reads/2 {
		t.Errorf("second snapshot: %d walks, %d reads (first: %d); want 1 walk and few reads", second.walks, second.reads, first.reads)
	}
}

// TestPublishedPermalinks checks that records reused from the cache get the
// permalinks a fresh extraction makes, escaping included.
func TestPublishedPermalinks(t *testing.T) {
	r := gittest.New(t)
	const p = "src/a b/x#1%.ts"
	r.Write(p, []byte("export function provider(id: string) {\n  return id\n}\n"))
	var snaps []source.Snapshot
	for _, msg := range []string{"one", "two"} {
		c, err := source.ResolveCommit(r.Repo, r.Commit(msg))
		if err != nil {
			t.Fatal(err)
		}
		s, err := source.NewGitSnapshot(r.Repo, c)
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, s)
	}
	cat := &findings.Catalog{Definitions: []*findings.Definition{{
		ID: "odd-path", Page: "prompts", Section: "S", Title: "T", Claim: "C", When: "W", Expect: findings.ExpectOne,
		Path: p, Source: "odd-path.yaml",
		Query: `(function_declaration name: (identifier) @_n (#eq? @_n "provider")) @finding`,
	}}}
	meta := Meta{Repo: "https://github.com/example/opencode", WebURL: "https://github.com/example/opencode"}
	shared, err := Compile(cat)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range snaps {
		fresh, err := Compile(cat)
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.Extract(s, meta)
		if err != nil {
			t.Fatal(err)
		}
		got, err := shared.Extract(s, meta)
		if err != nil {
			t.Fatal(err)
		}
		w, g := want.Document.Findings[0].Location.Permalink, got.Document.Findings[0].Location.Permalink
		if w == "" || w != g || !strings.Contains(g, "/src/a%20b/x%231%25.ts#L1-L3") {
			t.Errorf("snapshot %d: permalink %q, fresh Extractor's %q", i, g, w)
		}
	}
	if st := shared.Stats(); st.Reused != 1 {
		t.Errorf("Stats = %+v, want the second snapshot's record reused", st)
	}
}

// TestResultCacheBounded checks that the records kept in memory are
// those of the last few Extract calls, not of every commit extracted,
// and that a commit whose entries were dropped still gets its records
// right: from the disk cache when there is one (nothing located again),
// located afresh when there is none.
func TestResultCacheBounded(t *testing.T) {
	h := newHistory(t)
	want := h.reference(t)
	base, edit, revert := 0, 1, 3
	for _, dir := range []string{"", t.TempDir()} {
		x := compileCatalog(t, CompileOptions{CacheDir: dir})
		extract := func(i int) []byte {
			t.Helper()
			res, err := x.Extract(h.snaps[i], h.meta(i))
			if err != nil {
				t.Fatal(err)
			}
			return marshal(t, res)
		}
		extract(base)
		// edit changes bash.ts, which keys tool-result-bash: its entry of
		// base is used by no later call. (The prompt file edit changes
		// too is a dep of system-prompt-files, not part of its key: that
		// entry holds base's variant beside edit's.)
		for range keptCalls + 1 {
			extract(edit)
		}
		x.results.mu.Lock()
		n := len(x.results.entries)
		x.results.mu.Unlock()
		if n != len(x.defs) {
			t.Errorf("cache dir %q: %d result entries in memory after base and %d extracts of edit, want %d (edit's alone)", dir, n, keptCalls+1, len(x.defs))
		}
		// Dropping entries leaves the last call's: the cache still counts
		// as holding records (compileAhead runs on a first build only).
		if x.results.empty() {
			t.Errorf("cache dir %q: the result cache reports empty after its entries were bounded", dir)
		}
		before := x.Stats().Located
		got := extract(revert)
		sameDocs(t, "revert after base's entries were dropped", h, [][]byte{want[revert]}, [][]byte{got})
		located := x.Stats().Located - before
		if wantLocated := map[bool]int64{true: 1, false: 0}[dir == ""]; located != wantLocated {
			t.Errorf("cache dir %q: revert located %d definitions afresh, want %d", dir, located, wantLocated)
		}
	}
}

// TestStoreEncodesAsEntry: an entry written from its variants' own JSON,
// each encoded once, is byte for byte the JSON of the diskEntry, and reads
// back as the results stored.
func TestStoreEncodesAsEntry(t *testing.T) {
	d := &diskCache{root: t.TempDir()}
	d.dir = filepath.Join(d.root, "build")
	rec := func(id, excerpt string) *findings.Record {
		return &findings.Record{ID: id, Status: findings.StatusLocated, Claim: "a <b> & \"c\"\n",
			Location: &findings.Location{Path: "src/a#b.ts", Blob: "b0", Lines: findings.Lines{Start: 1, End: 2}, SHA256: strings.Repeat("ab", 32), Excerpt: excerpt}}
	}
	var vs []*cachedResult
	for i, ex := range []string{"let a = 1\n", "\u2028<script>\t\x00"} {
		kept, data, ok := cachable([]*findings.Record{rec(fmt.Sprintf("r%d", i), ex)})
		if !ok {
			t.Fatal("record not cachable")
		}
		v, err := newCachedResult([]dep{{Path: "src/a#b.ts", ID: fmt.Sprint(i)}, {ID: "search", Shape: "old"}}, kept, data)
		if err != nil {
			t.Fatal(err)
		}
		vs = append([]*cachedResult{v}, vs...)
		key := strings.Repeat("0", 63) + fmt.Sprint(i)
		d.store(key, vs)
		got, err := os.ReadFile(d.file(key))
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(diskEntry{Format: diskFormat, Key: key, Variants: vs})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("entry written:\n%s\nwant json.Marshal's:\n%s", got, want)
		}
		back := d.load(key)
		if len(back) != len(vs) || !reflect.DeepEqual(back[0].Records, vs[0].Records) || !reflect.DeepEqual(back[0].Deps, vs[0].Deps) {
			t.Fatalf("entry read back as %d variants, first %+v; want %d, first %+v", len(back), back[0], len(vs), vs[0])
		}
	}
}
