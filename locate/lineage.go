package locate

import (
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/keyfindings/keyfindings/source"

	"github.com/keyfindings/keyfindings/findings"
)

// lineage answers, for an Extractor, whether a commit is at or after a
// release tag, or before it, and remembers what it learnt per history:
// each commit is read once; per target commit, its ancestors found so far
// and the answers given.
//
// Releases are not always on the line that later commits descend from:
// since v1.14 opencode tags a release commit (version bumps only) made
// on top of a development commit and never merged back, so v1.18.3 does
// not descend from v1.18.2. Of the 982 release tags up to v1.18.3, 857
// are its ancestors and 94 are one such commit off its history. So, for
// a commit C and a tag's commit T:
//
//   - C is at or after T when C is T or descends from it; C is before T
//     when C is a proper ancestor of T;
//   - else, when T is a few commits off C's line (following T's parents
//     back at most maxOffLine commits, single-parent ones but for the
//     last, C descends from every parent of one of them) C is at or
//     after T, and when C is a few commits off T's line (likewise every
//     parent of one of C's is a proper ancestor of T) C is before T;
//     when both hold the nearer line decides, and at equal distance (C
//     and T are siblings) ancestry does not tell;
//   - otherwise (lines that part by more commits, a commit that shares
//     no history with T, history missing from a shallow copy) ancestry
//     does not tell.
//
// The second rule takes a tagged commit off the line to hold what its
// parents hold, as opencode's release commits do. One consequence: the
// development commit a release commit was cut from is a proper ancestor
// of it, so "before" it, although its code is the release's; located
// there, a finding carries the warning that its range looks wrong.
//
// Does C descend from target X? C's history is walked newest first, and
// X's alongside it down to the same commit time: a commit X's walk has
// reached is a proper ancestor of X, so cannot lead to X, and is not
// expanded. The walk covers roughly the commits between C and X, not the
// whole history, and X's walk resumes where it stopped for the next
// question. Commit times only order the work: with skewed clocks an
// answer can cost more, or be "does not tell", but is never wrong
// (descends needs X reached; a proper ancestor needs X's walk to reach
// it).
//
// An answer depends on the two commits alone (history does not change
// under a commit id), so the definite ones (at or after, before) are also
// kept in the disk cache, a file per commit asked about: a later run asks
// nothing of the repository for a commit it placed before.
type lineage struct {
	mu     sync.Mutex
	graphs map[source.History]*graph
	// disk, when set, keeps the definite answers across runs.
	disk *diskCache
}

// graph is what is known of one history.
type graph struct {
	h     source.History
	nodes map[string]*node
	tags  map[string]string
	walks map[string]*targetWalk
	// answers are the definite places found or read, per commit asked
	// about: its place to the tag commit targets[i] at i, PlaceUnknown
	// where none is known (a log asks about thousands of commits, and a
	// map per commit took some 1 KB of each). loaded and dirty say which
	// commits' files were read and which have answers they lack.
	answers map[string][]Place
	targets []string
	target  map[string]int
	loaded  map[string]bool
	dirty   map[string]bool
	// partial is set once a commit was found missing (a shallow copy,
	// or history it lacks): answers may then change when the copy
	// deepens, and none is kept on disk.
	partial bool
}

// node is one commit read; missing when the copy lacks it. seq numbers
// the nodes of a graph in the order read (the walks' sets are bits by it).
type node struct {
	id      string
	parents []string
	when    int64
	seq     int
	missing bool
}

// nodeSet is a set of a graph's nodes, a bit by seq: a walk over a long
// history marks most of its commits, so a map by id took some 40 bytes a
// commit and walk (25 MB over opencode's releases), a bit takes one.
type nodeSet []uint64

func (s nodeSet) has(n *node) bool {
	i := n.seq / 64
	return i < len(s) && s[i]&(1<<(n.seq%64)) != 0
}

func (s *nodeSet) add(n *node) {
	i := n.seq / 64
	if i >= len(*s) {
		*s = append(*s, make([]uint64, i+1-len(*s))...)
	}
	(*s)[i] |= 1 << (n.seq % 64)
}

// targetWalk is the walk of one target commit's history, resumable.
type targetWalk struct {
	target string
	// before holds the target's proper ancestors reached so far.
	before nodeSet
	queue  nodeQueue
	// after holds the commits known to be the target or to descend from
	// it, notAfter those known not to: every commit a walk from a commit
	// asked about went through, on the way to the target or, when it
	// was not reached, all of them (a log asks about thousands of
	// commits, newest first, each a parent of one asked before).
	after, notAfter nodeSet
}

func newLineage() *lineage { return &lineage{graphs: map[source.History]*graph{}} }

// Place is where a commit stands to a release tag.
type Place int8

const (
	// PlaceUnknown: ancestry does not tell (see lineage).
	PlaceUnknown Place = iota
	// AtOrAfter: the commit is the tagged one, or descends from it.
	AtOrAfter
	// Before: the commit comes before the tagged one on its line.
	Before
)

// place tells where commit stands to the commit tag names in h. Callers
// hold the Extractor's source lock (it reads the repository). walking,
// when not nil, is called before an answer neither known nor kept on disk
// walks the history.
func (l *lineage) place(h source.History, commit, tag string, walking func()) (Place, error) {
	if h == nil || commit == "" {
		return PlaceUnknown, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	g := l.graph(h)
	target, ok := g.tags[tag]
	if !ok {
		var err error
		if target, err = h.TagCommit(tag); err != nil {
			return PlaceUnknown, err
		}
		g.tags[tag] = target
	}
	if target == "" {
		return PlaceUnknown, nil
	}
	if !g.loaded[commit] {
		g.loaded[commit] = true
		if l.disk != nil {
			for t, p := range l.disk.loadPlaces(commit) {
				g.setAnswer(commit, t, p)
			}
		}
	}
	if p := g.answer(commit, target); p != PlaceUnknown {
		return p, nil
	}
	if walking != nil {
		walking()
	}
	p, err := g.place(commit, target)
	if err == nil && p != PlaceUnknown {
		g.setAnswer(commit, target, p)
		g.dirty[commit] = true
	}
	return p, err
}

// answer is the definite place of commit to the tag commit target found
// or read so far, PlaceUnknown when there is none.
func (g *graph) answer(commit, target string) Place {
	i, ok := g.target[target]
	if row := g.answers[commit]; ok && i < len(row) {
		return row[i]
	}
	return PlaceUnknown
}

// setAnswer notes the place of commit to the tag commit target.
func (g *graph) setAnswer(commit, target string, p Place) {
	i, ok := g.target[target]
	if !ok {
		i = len(g.targets)
		g.targets = append(g.targets, target)
		g.target[target] = i
	}
	row := g.answers[commit]
	if i >= len(row) {
		row = append(row, make([]Place, i+1-len(row))...)
		g.answers[commit] = row
	}
	row[i] = p
}

// answersOf lists the definite places of commit, by tag commit.
func (g *graph) answersOf(commit string) map[string]Place {
	out := map[string]Place{}
	for i, p := range g.answers[commit] {
		if p != PlaceUnknown {
			out[g.targets[i]] = p
		}
	}
	return out
}

// ErrHistoryMissing is Newer's error when this copy of the repository
// lacks history that ancestry needs (a shallow copy): whether one commit
// is newer than the other cannot be told.
var ErrHistoryMissing = errors.New("this copy of the repository lacks the history to tell which is newer")

// Newer reports whether commit comes after base in the history of snap,
// as a release tag's place is told (see lineage): commit is a proper
// descendant of base, or base is a release commit a few commits off
// commit's line (v1.18.3 comes after v1.18.2 and v1.17.0, although it
// descends from neither). It is false when commit comes before base,
// when they are equal or unrelated, for a plain directory (no history,
// or a commit id "") and for a commit of another repository (one a
// complete copy lacks). When the copy is shallow (base's history, or the
// history walked, reaches commits it lacks) and ancestry does not tell,
// the error is ErrHistoryMissing: a shallow copy must not pass for "not
// newer".
func (x *Extractor) Newer(snap source.Snapshot, commit, base string) (bool, error) {
	h := snap.History()
	if h == nil || commit == "" || base == "" || commit == base {
		return false, nil
	}
	x.src.Lock()
	defer x.src.Unlock()
	l := x.lineage
	l.mu.Lock()
	defer l.mu.Unlock()
	g := l.graph(h)
	for _, id := range []string{base, commit} {
		ok, err := g.present(id)
		if err != nil {
			return false, err
		}
		if ok {
			continue
		}
		if id == base {
			return false, nil
		}
		// Another repository's commit, or one a shallow copy lacks.
		bn := g.nodes[base]
		for _, p := range bn.parents {
			pn, err := g.node(p)
			if err != nil {
				return false, err
			}
			if pn.missing {
				return false, fmt.Errorf("%w (it lacks commit %s)", ErrHistoryMissing, commit)
			}
		}
		return false, nil
	}
	p, err := g.place(commit, base)
	switch {
	case err != nil:
		return false, err
	case p == PlaceUnknown && g.partial:
		return false, ErrHistoryMissing
	}
	return p == AtOrAfter, nil
}

// present reports whether the copy holds commit id, reading it as node
// does but without taking its absence for a gap in the history (node
// does: a parent the copy lacks is one).
func (g *graph) present(id string) (bool, error) {
	if n, ok := g.nodes[id]; ok {
		return !n.missing, nil
	}
	ps, when, err := g.h.Parents(id)
	switch {
	case errors.Is(err, source.ErrNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	g.nodes[id] = &node{id: id, seq: len(g.nodes), parents: ps, when: when.Unix()}
	return true, nil
}

// graph returns what is known of h, started on first use.
func (l *lineage) graph(h source.History) *graph {
	g, ok := l.graphs[h]
	if !ok {
		g = &graph{h: h, nodes: map[string]*node{}, tags: map[string]string{}, walks: map[string]*targetWalk{},
			answers: map[string][]Place{}, target: map[string]int{}, loaded: map[string]bool{}, dirty: map[string]bool{}}
		l.graphs[h] = g
	}
	return g
}

// save writes the definite answers found for commit in h to the disk
// cache, when it lacks some.
func (l *lineage) save(h source.History, commit string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	g, ok := l.graphs[h]
	if !ok || l.disk == nil || !g.dirty[commit] || g.partial {
		return
	}
	l.disk.storePlaces(commit, g.answersOf(commit))
	g.dirty[commit] = false
}

// place tells where commit stands to the tag commit target (see lineage).
func (g *graph) place(commit, target string) (Place, error) {
	if ok, err := g.descends(commit, target); err != nil || ok {
		return AtOrAfter, err
	}
	w, err := g.walk(target)
	if err != nil {
		return PlaceUnknown, err
	}
	cn, err := g.node(commit)
	if err != nil || cn.missing {
		return PlaceUnknown, err
	}
	if ok, err := g.reached(w, cn); err != nil || ok {
		return Before, err
	}
	after, err := g.descendsFromParents(commit, target)
	if err != nil {
		return PlaceUnknown, err
	}
	before, err := g.parentsReached(w, cn)
	if err != nil {
		return PlaceUnknown, err
	}
	// The nearer line decides; equally near (siblings), ancestry does not
	// tell.
	switch {
	case after > 0 && (before == 0 || after < before):
		return AtOrAfter, nil
	case before > 0 && (after == 0 || before < after):
		return Before, nil
	}
	return PlaceUnknown, nil
}

// maxOffLine is how many commits a release commit may stand off the line
// that later commits descend from and still be placed on it (see lineage).
const maxOffLine = 3

// descendsFromParents reports how many commits t stands off c's line: the
// n, at most maxOffLine, such that c descends from every parent of t's
// (n-1)-th single parent (1: c descends from every parent of t); 0 when
// none is.
func (g *graph) descendsFromParents(c, t string) (int, error) {
	return g.offLine(t, func(p string) (bool, error) { return g.descends(c, p) })
}

// parentsReached reports how many commits c stands off the line of w's
// target: the n, at most maxOffLine, such that every parent of c's
// (n-1)-th single parent is a proper ancestor of the target; 0 when none
// is.
func (g *graph) parentsReached(w *targetWalk, c *node) (int, error) {
	return g.offLine(c.id, func(p string) (bool, error) {
		pn, err := g.node(p)
		if err != nil || pn.missing {
			return false, err
		}
		return g.reached(w, pn)
	})
}

// offLine follows start's parents back at most maxOffLine commits (single
// parents but for the last) and returns the n of the first commit all of
// whose parents satisfy ok (1: start's own parents); 0 when none does.
func (g *graph) offLine(start string, ok func(parent string) (bool, error)) (int, error) {
	id := start
	for n := 1; n <= maxOffLine; n++ {
		cur, err := g.node(id)
		if err != nil || cur.missing || len(cur.parents) == 0 {
			return 0, err
		}
		all := true
		for _, p := range cur.parents {
			yes, err := ok(p)
			if err != nil {
				return 0, err
			}
			all = all && yes
		}
		switch {
		case all:
			return n, nil
		case len(cur.parents) > 1:
			return 0, nil
		}
		id = cur.parents[0]
	}
	return 0, nil
}

// reached reports whether w's walk, taken down to n's commit time, has
// found n to be a proper ancestor of its target.
func (g *graph) reached(w *targetWalk, n *node) (bool, error) {
	if err := g.advance(w, n.when); err != nil {
		return false, err
	}
	return w.before.has(n), nil
}

// walk returns the walk of target's history, starting it on first use.
func (g *graph) walk(target string) (*targetWalk, error) {
	if w, ok := g.walks[target]; ok {
		return w, nil
	}
	t, err := g.node(target)
	if err != nil {
		return nil, err
	}
	w := &targetWalk{target: target}
	w.queue.push(t)
	g.walks[target] = w
	return w, nil
}

// node returns a commit, read once.
func (g *graph) node(id string) (*node, error) {
	if n, ok := g.nodes[id]; ok {
		return n, nil
	}
	n := &node{id: id, seq: len(g.nodes)}
	ps, when, err := g.h.Parents(id)
	switch {
	case errors.Is(err, source.ErrNotFound):
		n.missing = true
		g.partial = true
	case err != nil:
		return nil, err
	default:
		n.parents, n.when = ps, when.Unix()
	}
	g.nodes[id] = n
	return n, nil
}

// advance walks the target's history down to commit time when.
func (g *graph) advance(w *targetWalk, when int64) error {
	for w.queue.Len() > 0 && w.queue.top().when >= when {
		n := w.queue.pop()
		if n.missing {
			// Fewer commits known to be the target's ancestors: a
			// walk from a commit asked about just goes further.
			continue
		}
		for _, p := range n.parents {
			pn, err := g.node(p)
			if err != nil {
				return err
			}
			if w.before.has(pn) {
				continue
			}
			w.before.add(pn)
			w.queue.push(pn)
		}
	}
	return nil
}

// descends reports whether commit is target or descends from it: its
// history is walked newest first until it reaches the target or runs
// out (of commits not known to be the target's ancestors).
func (g *graph) descends(commit, target string) (bool, error) {
	w, err := g.walk(target)
	if err != nil {
		return false, err
	}
	start, err := g.node(commit)
	if err != nil {
		return false, err
	}
	switch {
	case w.after.has(start):
		return true, nil
	case w.notAfter.has(start):
		return false, nil
	}
	var queue nodeQueue
	queue.push(start)
	// from is the commit each one was reached from, back to start.
	from := map[*node]*node{start: nil}
	var found *node
	for queue.Len() > 0 && found == nil {
		if err := g.advance(w, queue.top().when); err != nil {
			return false, err
		}
		n := queue.pop()
		if n.id == target || w.after.has(n) {
			found = n
			break
		}
		if w.before.has(n) || n.missing || w.notAfter.has(n) {
			continue
		}
		for _, p := range n.parents {
			pn, err := g.node(p)
			if err != nil {
				return false, err
			}
			if _, seen := from[pn]; !seen {
				from[pn] = n
				queue.push(pn)
			}
		}
	}
	if found == nil {
		// Every way down from each commit reached was followed (or
		// stopped at a commit that cannot lead to the target): none
		// descends from it.
		for n := range from {
			if !n.missing {
				w.notAfter.add(n)
			}
		}
		return false, nil
	}
	for n := found; n != nil; n = from[n] {
		w.after.add(n)
	}
	return true, nil
}

// nodeQueue is a max-heap of commits by commit time (ties by id, so the
// walk is deterministic).
type nodeQueue []*node

func (q nodeQueue) Len() int { return len(q) }
func (q nodeQueue) less(i, j int) bool {
	if q[i].when != q[j].when {
		return q[i].when > q[j].when
	}
	return q[i].id < q[j].id
}
func (q nodeQueue) top() *node { return q[0] }

func (q *nodeQueue) push(n *node) {
	*q = append(*q, n)
	for i := len(*q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q.less(i, p) {
			break
		}
		(*q)[i], (*q)[p] = (*q)[p], (*q)[i]
		i = p
	}
}

func (q *nodeQueue) pop() *node {
	old := *q
	top := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*q = old[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < last && q.less(l, m) {
			m = l
		}
		if r < last && q.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		(*q)[i], (*q)[m] = (*q)[m], (*q)[i]
		i = m
	}
	return top
}

// outside is a commit's place outside a definition's since/until range.
type outside struct {
	// reason is the absent record's problem: "introduced in v1.15.5" or
	// "removed in v1.17.0".
	reason string
	// where words the commit's place for a warning.
	where string
}

// rangeAt is where a snapshot's commit stands to a definition's since and
// until tags: nil when inside, or when ancestry does not tell (a plain
// directory, a tag the repository lacks, an unrelated commit).
func (x *Extractor) rangeAt(snap source.Snapshot, d *findings.Definition, walking func()) (*outside, error) {
	if d.Since != "" {
		p, err := x.placeAt(snap, d.Since, walking)
		if err != nil {
			return nil, err
		}
		if p == Before {
			return &outside{reason: "introduced in " + d.Since, where: "comes before " + d.Since + " (since:)"}, nil
		}
	}
	if d.Until != "" {
		p, err := x.placeAt(snap, d.Until, walking)
		if err != nil {
			return nil, err
		}
		if p == AtOrAfter {
			return &outside{reason: "removed in " + d.Until, where: "is at or after " + d.Until + " (until:)"}, nil
		}
	}
	return nil, nil
}

// apply turns the records of a definition at a commit outside its range:
// a missing finding is absent, with the reason; a finding whose code is
// found there keeps its status, with a warning that the range looks
// wrong (the code is the evidence, the range a claim about it).
func (o *outside) apply(recs []*findings.Record) {
	for _, r := range recs {
		switch r.Status {
		case findings.StatusMissing:
			r.Status = findings.StatusAbsent
			r.Problem = strp(o.reason)
		case findings.StatusLocated, findings.StatusAmbiguous:
			r.Warnings = append(r.Warnings, fmt.Sprintf("this commit %s, where the definition says the finding is %s, yet its code is here: the definition's since/until range looks wrong", o.where, o.reason))
			sort.Strings(r.Warnings)
		}
	}
}

// searchOff names the shapes of a definition that the tree search skips
// at a commit: every one when the commit is outside the definition's
// since/until range (all), else those whose search_from it comes before.
type searchOff struct {
	all    bool
	shapes map[*compiledShape]bool
}

// searchSkipped returns the shapes of cd that the tree search skips at
// r's commit for their search_from: those with one that the commit comes
// before by ancestry, among the shapes whose own files are all absent
// there (a shape whose file is present is never searched for, so its
// place is not asked). nil when none, or when ancestry does not tell.
func (x *Extractor) searchSkipped(r *run, cd *compiledDef, walking func()) (map[*compiledShape]bool, error) {
	var out map[*compiledShape]bool
	for _, s := range cd.shapes {
		tag := s.def.SearchFrom
		if tag == "" {
			continue
		}
		absent, err := r.absent(s)
		if err != nil || !absent {
			if err != nil {
				return nil, err
			}
			continue
		}
		p, err := x.placeAt(r.snap, tag, walking)
		if err != nil {
			return nil, err
		}
		if p == Before {
			if out == nil {
				out = map[*compiledShape]bool{}
			}
			out[s] = true
		}
	}
	return out, nil
}

// placeAt is where snap's commit stands to tag, PlaceUnknown for a plain
// directory.
func (x *Extractor) placeAt(snap source.Snapshot, tag string, walking func()) (Place, error) {
	h := snap.History()
	if h == nil {
		return PlaceUnknown, nil
	}
	x.src.Lock()
	defer x.src.Unlock()
	l := x.lineage
	if cachesOff.lineage {
		l = newLineage()
	}
	return l.place(h, snap.Commit(), tag, walking)
}
