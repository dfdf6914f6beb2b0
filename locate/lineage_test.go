package locate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/keyfindings/keyfindings/internal/gittest"
	"github.com/keyfindings/keyfindings/source"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/keyfindings/keyfindings/findings"
)

const (
	withCode    = "../testdata/shapes/module/packages/opencode/src/session/system.ts"
	withoutCode = "../testdata/shapes/neither/packages/opencode/src/session/system.ts"
	systemPath  = "packages/opencode/src/session/system.ts"
)

// rangeHistory is a first commit, v1.0.0 (no code), v1.1.0 (code), v1.2.0
// (code gone), a later commit with the code back, a side branch off the
// first commit and an unrelated root commit (both without the code).
func rangeHistory(t *testing.T) (*gittest.Repo, map[string]string) {
	r := gittest.New(t)
	at := map[string]string{}
	step := func(name, file string) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		r.Write(systemPath, data)
		at[name] = r.Commit(name)
		if strings.HasPrefix(name, "v") {
			r.Tag(name)
		}
	}
	step("first", withoutCode)
	step("v1.0.0", withoutCode)
	step("v1.1.0", withCode)
	step("v1.2.0", withoutCode)
	step("back", withCode)
	base, err := r.Repo.CommitObject(plumbing.NewHash(at["first"]))
	if err != nil {
		t.Fatal(err)
	}
	at["side"] = r.RawCommit("side", base.TreeHash, base.Hash)
	at["unrelated"] = r.RawCommit("unrelated", base.TreeHash)
	return r, at
}

// TestSinceUntil: outside since/until by ancestry an unlocated finding is
// absent with the reason; where ancestry cannot tell (an unrelated commit,
// a tag the repository lacks, a plain directory) it is missing; code
// found outside the range is located, with a warning.
func TestSinceUntil(t *testing.T) {
	r, at := rangeHistory(t)
	x := loadDefs(t, "../testdata/shapes/range-defs")
	tests := []struct {
		commit  string
		status  findings.Status
		problem string
		warning string
	}{
		{"v1.0.0", findings.StatusAbsent, "introduced in v1.1.0", ""},
		{"v1.1.0", findings.StatusLocated, "", ""},
		{"v1.2.0", findings.StatusAbsent, "removed in v1.2.0", ""},
		{"back", findings.StatusLocated, "", "is at or after v1.2.0 (until:)"},
		{"side", findings.StatusAbsent, "introduced in v1.1.0", ""},
		{"unrelated", findings.StatusMissing, "no match in " + systemPath, ""},
	}
	for _, tt := range tests {
		t.Run(tt.commit, func(t *testing.T) {
			res, err := x.Extract(snapshotOf(r, at[tt.commit]), Meta{})
			if err != nil {
				t.Fatal(err)
			}
			got := res.Document.Find("introduced")
			if got.Status != tt.status || deref(got.Problem) != tt.problem {
				t.Errorf("status %s problem %q, want %s %q", got.Status, deref(got.Problem), tt.status, tt.problem)
			}
			warned := strings.Join(got.Warnings, "\n")
			if tt.warning == "" && warned != "" || !strings.Contains(warned, tt.warning) {
				t.Errorf("warnings %q, want one holding %q", warned, tt.warning)
			}
			// A tag the repository does not have: never absent.
			if u := res.Document.Find("unknown-tag"); u.Status == findings.StatusAbsent {
				t.Errorf("unknown-tag is absent (%s); a tag the repository lacks must not tell", deref(u.Problem))
			}
		})
	}
	// A plain directory has no ancestry: missing.
	res, err := x.Extract(source.NewDirSnapshot("../testdata/shapes/neither"), Meta{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Document.Find("introduced"); got.Status != findings.StatusMissing {
		t.Errorf("plain directory: status %s, want missing", got.Status)
	}
}

// fakeHistory is a commit graph in memory that counts its reads.
type fakeHistory struct {
	tags    map[string]string
	parents map[string][]string
	// when is each commit's time in hours; skewed clocks included.
	when  map[string]int
	reads map[string]int
}

func (h *fakeHistory) TagCommit(tag string) (string, error) { return h.tags[tag], nil }

func (h *fakeHistory) Parents(c string) ([]string, time.Time, error) {
	h.reads[c]++
	ps, ok := h.parents[c]
	if !ok {
		return nil, time.Time{}, source.ErrNotFound
	}
	return ps, time.Unix(int64(h.when[c])*3600, 0), nil
}

// placeCase is a question to a lineage and its answer.
type placeCase struct {
	commit, tag string
	want        Place
}

// lineageCases is the graph TestLineage describes and the questions it
// asks of it.
func lineageCases() (*fakeHistory, []placeCase) {
	h := &fakeHistory{
		tags: map[string]string{"t1": "r1", "t2": "r2", "tz": "y", "t3": "k", "t4": "p2", "t5": "o4"},
		parents: map[string][]string{
			"a": nil, "b": {"a"}, "c": {"b"}, "s": {"a"}, "m": {"c", "s"}, "e": {"m"},
			"r1": {"b"}, "r2": {"e"},
			"x": nil, "y": {"z"},
			"j": nil, "k": {"j"}, "u": {"k"}, "q": {"j"},
			"p1": {"c"}, "p2": {"p1"}, "o1": {"c"}, "o2": {"o1"}, "o3": {"o2"}, "o4": {"o3"},
			"v1": {"a"}, "v2": {"v1"},
		},
		when: map[string]int{"a": 1, "b": 2, "r1": 3, "c": 3, "s": 4, "m": 5, "e": 6, "r2": 7, "x": 1, "y": 2, "j": 1, "k": 20, "u": 10, "q": 5,
			"p1": 4, "p2": 4, "o1": 4, "o2": 4, "o3": 4, "o4": 4, "v1": 2, "v2": 3},
		reads: map[string]int{},
	}
	tests := []placeCase{
		{"r1", "t1", AtOrAfter},
		{"b", "t1", Before}, // the commit the release was cut from
		{"e", "t1", AtOrAfter},
		{"r2", "t1", AtOrAfter},
		{"a", "t1", Before},
		{"s", "t1", Before}, // one commit off the line before t1
		{"r1", "t2", Before},
		{"m", "t2", Before},
		{"x", "t1", PlaceUnknown},
		{"y", "t1", PlaceUnknown},
		{"b", "tz", PlaceUnknown},
		{"b", "no-such-tag", PlaceUnknown},
		{"u", "t3", AtOrAfter},
		{"q", "t3", PlaceUnknown}, // siblings: each one commit off the other's line
		{"j", "t3", Before},
		{"x", "t3", PlaceUnknown},
		{"e", "t4", AtOrAfter}, // the release two commits off e's line
		{"b", "t4", Before},
		{"e", "t5", PlaceUnknown}, // four commits off: too far to tell
		{"v2", "t2", Before},      // a side line two commits off, older
	}
	return h, tests
}

// TestLineageKeptOnDisk checks that a lineage with a disk cache keeps its
// definite answers there: another lineage on the same directory (a later
// run) gives them without reading any commit, and asks the history again
// for what did not tell, and for a commit whose file does not read back.
func TestLineageKeptOnDisk(t *testing.T) {
	disk := newDiskCache(t.TempDir())
	h, all := lineageCases()
	// Not the questions that reach the shallow boundary (y's parent z
	// is missing): see TestLineageShallowNotKept.
	var tests []placeCase
	for _, tt := range all {
		if tt.commit != "y" && tt.tag != "tz" {
			tests = append(tests, tt)
		}
	}
	l := newLineage()
	l.disk = disk
	walks := 0
	walking := func() { walks++ }
	for _, tt := range tests {
		if _, err := l.place(h, tt.commit, tt.tag, walking); err != nil {
			t.Fatal(err)
		}
		l.save(h, tt.commit)
	}
	if walks == 0 {
		t.Error("no placement of a first run told its caller it walks the history")
	}
	later := func() (*lineage, *fakeHistory) {
		h2, _ := lineageCases()
		l2 := newLineage()
		l2.disk = disk
		return l2, h2
	}
	l2, h2 := later()
	definite := 0
	for _, tt := range tests {
		if tt.want == PlaceUnknown {
			continue
		}
		definite++
		got, err := l2.place(h2, tt.commit, tt.tag, func() { t.Errorf("%s against %s: walks, with the answer on disk", tt.commit, tt.tag) })
		if err != nil || got != tt.want {
			t.Errorf("%s against %s from the disk cache: %v, %v; want %v", tt.commit, tt.tag, got, err, tt.want)
		}
	}
	if len(h2.reads) != 0 || definite == 0 {
		t.Errorf("a later run read commits %v to give %d answers kept on disk, want none", h2.reads, definite)
	}
	l3, h3 := later()
	if got, _ := l3.place(h3, "q", "t3", nil); got != PlaceUnknown || len(h3.reads) == 0 {
		t.Errorf("an answer that did not tell was kept: %v, reads %v", got, h3.reads)
	}
	if err := os.WriteFile(disk.placesFile("e"), []byte(`{"format":"keyfindings/lineage-cache/1","commit":"e","places":{"r1":7}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	l4, h4 := later()
	if got, _ := l4.place(h4, "e", "t1", nil); got != AtOrAfter || len(h4.reads) == 0 {
		t.Errorf("a bad lineage file: %v, reads %v; want the answer from the history", got, h4.reads)
	}
}

// TestLineageShallowNotKept checks that answers found in a history that
// lacks some commits (a shallow copy) are not kept on disk: they may
// change when the copy deepens.
func TestLineageShallowNotKept(t *testing.T) {
	disk := newDiskCache(t.TempDir())
	h, _ := lineageCases()
	l := newLineage()
	l.disk = disk
	// y's parent z is missing (the shallow boundary of the graph).
	if _, err := l.place(h, "y", "t1", nil); err != nil {
		t.Fatal(err)
	}
	if got, err := l.place(h, "e", "t1", nil); err != nil || got != AtOrAfter {
		t.Fatalf("e against t1: %v, %v", got, err)
	}
	l.save(h, "e")
	if _, err := os.Stat(disk.placesFile("e")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("answers of a history with missing commits were kept on disk (%v)", err)
	}
}

// TestLineage checks places against a graph with a merge, release
// commits off the line (as opencode tags them), an unrelated root, a
// shallow boundary and skewed clocks, and that each commit is read once
// however many questions are asked.
func TestLineage(t *testing.T) {
	// a ← b ← c ← m ← e     mainline, s (off a) merged into m
	// r1 off b (tag t1), r2 off e (tag t2): release commits never merged
	// x: an unrelated root;  y ← z, z missing (shallow; tag tz = y)
	// j ← k (tag t3) ← u, j ← q; k is 10 hours newer than its child u
	// c ← p1 ← p2 (tag t4): a release two commits off the line;
	// c ← o1 ← o2 ← o3 ← o4 (tag t5): four off, too far to tell;
	// a ← v1 ← v2: a side line two commits off, before t2
	h, tests := lineageCases()
	l := newLineage()
	for _, tt := range tests {
		got, err := l.place(h, tt.commit, tt.tag, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s against %s: %v, want %v", tt.commit, tt.tag, got, tt.want)
		}
	}
	for c, n := range h.reads {
		if n != 1 {
			t.Errorf("commit %s read %d times, want once", c, n)
		}
	}
	if got, _ := l.place(nil, "b", "t1", nil); got != PlaceUnknown {
		t.Errorf("no history: %v, want unknown", got)
	}
}

// TestLineageRealHistory checks places in opencode's own history, where
// release commits since v1.14 are not merged back (v1.18.3 does not
// descend from v1.18.2), and some are two commits off the line.
func TestLineageRealHistory(t *testing.T) {
	dir := os.Getenv("KEYFINDINGS_OPENCODE_REPO")
	if dir == "" {
		t.Skip("KEYFINDINGS_OPENCODE_REPO is not set (a local copy of opencode's history)")
	}
	o, err := source.Open(context.Background(), source.Options{Repo: dir, Pin: findings.DefaultPin()})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	at, err := o.At(context.Background(), "v1.18.3")
	if err != nil {
		t.Fatal(err)
	}
	h := at.Snapshot.History()
	l := newLineage()
	tests := []struct {
		at, tag string
		want    Place
	}{
		{"v1.18.3", "v1.14.26", AtOrAfter},
		{"v1.18.3", "v1.18.2", AtOrAfter},
		{"v1.18.3", "v1.0.0", AtOrAfter},
		{"v1.18.2", "v1.18.3", Before},
		{"v1.14.20", "v1.14.26", Before},
		{"v1.0.0", "v1.14.42", Before},
		{"v1.4.7", "v1.4.8", Before},
		// v0.0.1's release commit is two commits off the line (April
		// 2025); v0.0.5's five, too far to tell.
		{"v0.0.1", "v1.14.26", Before},
		{"v0.0.5", "v1.14.26", PlaceUnknown},
		// Two commits off the line as well.
		{"v1.0.101", "v1.16.0", Before},
		{"v1.0.163", "v1.16.0", Before},
		{"v1.16.0", "v1.0.101", AtOrAfter},
	}
	for _, tt := range tests {
		c, err := h.TagCommit(tt.at)
		if err != nil || c == "" {
			t.Fatalf("tag %s: %v", tt.at, err)
		}
		got, err := l.place(h, c, tt.tag, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s against %s: %v, want %v", tt.at, tt.tag, got, tt.want)
		}
	}
}

// snapshotOf is the source snapshot of a commit of r.
func snapshotOf(r *gittest.Repo, commit string) source.Snapshot {
	r.T.Helper()
	c, err := r.Repo.CommitObject(plumbing.NewHash(commit))
	if err != nil {
		r.T.Fatal(err)
	}
	s, err := source.NewGitSnapshot(r.Repo, c)
	if err != nil {
		r.T.Fatal(err)
	}
	return s
}

// TestOutsideRangeNoSearch: outside its since/until range a finding is
// looked for at its own paths only. Its code elsewhere in the tree before
// since is not searched for (the record is absent), while inside the
// range the same moved code is found by the tree search.
func TestOutsideRangeNoSearch(t *testing.T) {
	code, err := os.ReadFile(withCode)
	if err != nil {
		t.Fatal(err)
	}
	const elsewhere = "packages/opencode/src/prompt/system.ts"
	r := gittest.New(t)
	r.Write(elsewhere, code)
	before := r.Commit("code elsewhere")
	r.Tag("v1.0.0")
	r.Remove(elsewhere)
	r.Write(systemPath, code)
	r.Commit("code at its path")
	r.Tag("v1.1.0")
	r.Remove(systemPath)
	r.Write(elsewhere, code)
	moved := r.Commit("moved inside the range")
	x := loadDefs(t, "../testdata/shapes/range-defs")
	for _, tt := range []struct {
		commit  string
		status  findings.Status
		problem string
	}{
		{before, findings.StatusAbsent, "introduced in v1.1.0"},
		{moved, findings.StatusLocated, ""},
	} {
		res, err := x.Extract(snapshotOf(r, tt.commit), Meta{})
		if err != nil {
			t.Fatal(err)
		}
		got := res.Document.Find("introduced")
		if got.Status != tt.status || deref(got.Problem) != tt.problem {
			t.Errorf("at %s: status %s problem %q, want %s %q", tt.commit[:8], got.Status, deref(got.Problem), tt.status, tt.problem)
		}
		if tt.status == findings.StatusLocated && (got.Location == nil || got.Location.Path != elsewhere) {
			t.Errorf("at %s: located at %+v, want %s", tt.commit[:8], got.Location, elsewhere)
		}
	}
}

// TestNodeSet checks the bit set the walks mark commits in: a node is in
// it once added, and only then, whatever its number.
func TestNodeSet(t *testing.T) {
	var s nodeSet
	nodes := make([]*node, 300)
	for i := range nodes {
		nodes[i] = &node{seq: i}
	}
	added := map[int]bool{0: true, 63: true, 64: true, 129: true, 299: true}
	for i := range added {
		s.add(nodes[i])
	}
	for i, n := range nodes {
		if s.has(n) != added[i] {
			t.Errorf("node %d: in the set %v, want %v", i, s.has(n), added[i])
		}
	}
	if len(s) != 5 {
		t.Errorf("%d words for 300 nodes, want 5", len(s))
	}
}

// TestSearchFrom: before a shape's search_from (by ancestry) the tree
// search skips that shape, so code of that shape in another file is not
// found there, and the missing record says why; at its own path the shape
// is located before search_from as anywhere; from the tag on, and where
// ancestry cannot tell (a plain directory), the search finds the moved
// code. Older shapes are searched for all along.
func TestSearchFrom(t *testing.T) {
	module, err := os.ReadFile(withCode)
	if err != nil {
		t.Fatal(err)
	}
	namespace, err := os.ReadFile("../testdata/shapes/namespace/" + systemPath)
	if err != nil {
		t.Fatal(err)
	}
	const elsewhere = "packages/opencode/src/prompt/system.ts"
	r := gittest.New(t)
	r.Write(elsewhere, module)
	early := r.Commit("module form elsewhere, before v1.0.0")
	r.Tag("v1.0.0")
	r.Remove(elsewhere)
	r.Write(systemPath, module)
	atPath := r.Commit("module form at its path, before v1.1.0")
	r.Remove(systemPath)
	r.Write(elsewhere, namespace)
	older := r.Commit("namespace form elsewhere, before v1.1.0")
	r.Write(elsewhere, module)
	r.Commit("v1.1.0: module form elsewhere")
	r.Tag("v1.1.0")
	late := r.Commit("after v1.1.0")
	x := loadDefs(t, "../testdata/shapes/search-from-defs")
	for _, tt := range []struct {
		name, commit string
		status       findings.Status
		path, shape  string
		problem      string
	}{
		{"before", early, findings.StatusMissing, "", "", "shape module: file not found: " + systemPath + " (not searched for elsewhere before v1.1.0, the shape's search_from)"},
		{"at its path", atPath, findings.StatusLocated, systemPath, "module", ""},
		{"older shape", older, findings.StatusLocated, elsewhere, "namespace", ""},
		{"from the tag", late, findings.StatusLocated, elsewhere, "module", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := x.Extract(snapshotOf(r, tt.commit), Meta{})
			if err != nil {
				t.Fatal(err)
			}
			got := res.Document.Find("late-module")
			if got.Status != tt.status {
				t.Fatalf("status %s (%s), want %s", got.Status, deref(got.Problem), tt.status)
			}
			if tt.problem != "" && !strings.HasPrefix(deref(got.Problem), tt.problem) {
				t.Errorf("problem %q, want it to start with %q", deref(got.Problem), tt.problem)
			}
			if tt.path != "" && (got.Location == nil || got.Location.Path != tt.path || got.Shape != tt.shape) {
				t.Errorf("located at %+v shape %q, want %s by shape %s", got.Location, got.Shape, tt.path, tt.shape)
			}
		})
	}
	// A plain directory has no ancestry to place it by: searched.
	dir := t.TempDir()
	if err := os.MkdirAll(dir+"/packages/opencode/src/prompt", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/"+elsewhere, module, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := x.Extract(source.NewDirSnapshot(dir), Meta{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Document.Find("late-module"); got.Status != findings.StatusLocated {
		t.Errorf("plain directory: status %s (%s), want located", got.Status, deref(got.Problem))
	}
}

// TestLineageAnyOrder asks TestLineage's questions in other orders, each
// of a fresh lineage: what one walk remembers (the commits it went
// through, descending from the target or not) never changes a later
// answer.
func TestLineageAnyOrder(t *testing.T) {
	_, tests := lineageCases()
	orders := [][]placeCase{slices.Clone(tests), slices.Clone(tests)}
	slices.Reverse(orders[0])
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(orders[1]), func(i, j int) { orders[1][i], orders[1][j] = orders[1][j], orders[1][i] })
	for k, order := range orders {
		h, _ := lineageCases()
		l := newLineage()
		for _, tt := range order {
			got, err := l.place(h, tt.commit, tt.tag, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("order %d: %s against %s: %v, want %v", k, tt.commit, tt.tag, got, tt.want)
			}
		}
	}
}

// TestDescendsRemembersTheWay: asked whether the newest of a line of
// commits descends from a tag, the walk remembers every commit on its way
// down, so the next question (its parent, as a log asks them) costs no
// walk: over a line of n commits the questions read each commit once in
// all, not once per question.
func TestDescendsRemembersTheWay(t *testing.T) {
	const n = 200
	h := &fakeHistory{tags: map[string]string{"t": "c0"}, parents: map[string][]string{"c0": nil}, when: map[string]int{"c0": 0}, reads: map[string]int{}}
	for i := 1; i < n; i++ {
		c := fmt.Sprintf("c%d", i)
		h.parents[c] = []string{fmt.Sprintf("c%d", i-1)}
		h.when[c] = i
	}
	l := newLineage()
	if p, err := l.place(h, fmt.Sprintf("c%d", n-1), "t", nil); err != nil || p != AtOrAfter {
		t.Fatalf("newest: %v %v", p, err)
	}
	g := l.graph(h)
	w := g.walks["c0"]
	for i := 0; i < n; i++ {
		if !w.after.has(g.nodes[fmt.Sprintf("c%d", i)]) {
			t.Fatalf("c%d not remembered as descending from the tag", i)
		}
	}
	for i := n - 2; i >= 0; i-- {
		if p, err := l.place(h, fmt.Sprintf("c%d", i), "t", nil); err != nil || p != AtOrAfter {
			t.Fatalf("c%d: %v %v", i, p, err)
		}
	}
}
