package history

import (
	"bytes"
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/keyfindings/keyfindings/releases"
	"github.com/keyfindings/keyfindings/source"
)

// A record at a commit depends on the definition and on the files locating
// it reads, nothing else (locate/results.go): the files at the
// definition's path and candidates, the file a file: span cites, and, only
// when the definition's files are all absent, the .ts/.tsx files of the
// whole tree (the tree search). So a commit whose entries at those paths
// (blob id and mode) equal its first parent's, and, when the definition's
// files are absent, whose .ts/.tsx files equal its parent's, has the
// parent's record: it is not located at all.

// Results of inputsDiffer.
const (
	unchangedInputs = iota
	// filesChanged: an entry at a path of inputs differs.
	filesChanged
	// sourcesChanged: the definition's files are absent on both sides and
	// some .ts/.tsx file of the tree differs (the search's inputs).
	sourcesChanged
)

// inputsDiffer compares n's inputs with its first parent's: the entries
// at the definition's paths and at the walker's extra paths as they stand
// when the call begins, both sides by the same paths. A root commit
// differs from "nothing".
func (w *walker) inputsDiffer(n node) (int, error) {
	if !n.hasParent {
		// Compared with an empty tree: listed when the record is located.
		return filesChanged, nil
	}
	pc, err := w.commits.get(w.objs, n.parent)
	if err != nil {
		return 0, err
	}
	ptree := pc.tree
	d := w.pdiff.at(n.tree, ptree)
	for _, ps := range [][]string{w.paths, w.extraPaths()} {
		for _, p := range ps {
			differs, err := d.differs(w, p)
			if err != nil {
				return 0, fmt.Errorf("look up %s at %s and its parent: %w", p, n.hash, err)
			}
			if differs {
				return filesChanged, nil
			}
		}
	}
	for _, p := range w.paths {
		e, ok, err := w.lookup(n.tree, p)
		if err != nil {
			return 0, fmt.Errorf("look up %s at %s: %w", p, n.hash, err)
		}
		if ok && e.Mode.IsFile() {
			// The same files on both sides, and one of the
			// definition's own: the same records.
			return unchangedInputs, nil
		}
	}
	// The definition's files are absent on both sides: the records come
	// from the tree search, which depends on where each commit stands to
	// the definition's since/until range and its shapes' search_from
	// tags as well as on the source files (even two equal trees differ
	// when a release's edge lies between them).
	out, err := w.outsideRange(n.hash)
	if err != nil {
		return 0, err
	}
	pout, err := w.outsideRange(n.parent)
	if err != nil {
		return 0, err
	}
	if out != pout {
		return sourcesChanged, nil
	}
	if out != "" {
		// Both outside the range alike: looked for at the definition's
		// paths only, which hold the same.
		return unchangedInputs, nil
	}
	skipped, err := w.searchSkipped(n.hash)
	if err != nil {
		return 0, err
	}
	pskipped, err := w.searchSkipped(n.parent)
	if err != nil {
		return 0, err
	}
	if !slices.Equal(skipped, pskipped) {
		// A shape's search_from lies between them: the search at n
		// tries another set of shapes than at its parent.
		return sourcesChanged, nil
	}
	if n.tree == ptree || len(skipped) == w.nshapes {
		// The same sources, or every shape looked for at its paths
		// only, on both sides.
		return unchangedInputs, nil
	}
	changed, err := w.sourcesDiffer(ptree, n.tree, skipped)
	if err != nil {
		return 0, err
	}
	if changed {
		return sourcesChanged, nil
	}
	return unchangedInputs, nil
}

// pathDiff tells, for one pair of trees (a commit's and its first
// parent's), which paths hold another entry on one side than on the
// other. The walkers of a log share it: at a node, each path is compared
// once for all of them, and a path under a directory whose two entries
// are equal is not looked up at all (as git's path-limited walk skips
// equal subtrees). Only the walk's producer uses it.
type pathDiff struct {
	tree, ptree plumbing.Hash
	memo        map[string]bool
}

// at returns d set to trees tree and ptree, what it knew of other trees
// forgotten.
func (d *pathDiff) at(tree, ptree plumbing.Hash) *pathDiff {
	if d.memo == nil || d.tree != tree || d.ptree != ptree {
		d.tree, d.ptree = tree, ptree
		if d.memo == nil {
			d.memo = map[string]bool{}
		}
		clear(d.memo)
	}
	return d
}

// differs reports whether p (a file or directory) holds another entry
// (blob or tree id, mode, or none) in d's two trees.
func (d *pathDiff) differs(w *walker, p string) (bool, error) {
	if d.tree == d.ptree {
		return false, nil
	}
	if v, ok := d.memo[p]; ok {
		return v, nil
	}
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		dir, err := d.differs(w, p[:i])
		if err != nil {
			return false, err
		}
		if !dir {
			d.memo[p] = false
			return false, nil
		}
	}
	a, okA, err := w.lookup(d.tree, p)
	if err != nil {
		return false, err
	}
	b, okB, err := w.lookup(d.ptree, p)
	if err != nil {
		return false, err
	}
	v := okA != okB || a.Hash != b.Hash || a.Mode != b.Mode
	d.memo[p] = v
	return v, nil
}

// searchSkipped is locate's Extractor.SearchSkipped for commit h,
// remembered.
func (w *walker) searchSkipped(h plumbing.Hash) ([]string, error) {
	if w.nshapes == 0 || !w.searchFrom {
		return nil, nil
	}
	if s, ok := w.skipped[h]; ok {
		return s, nil
	}
	s, err := w.x.SearchSkipped(w.q.Definition.ID, w.hist, h.String())
	if err != nil {
		return nil, fmt.Errorf("place %s against %s's search_from tags: %w", h, w.q.Definition.ID, err)
	}
	w.skipped[h] = s
	return s, nil
}

// outsideRange is locate's Extractor.OutsideRange for commit h,
// remembered: "" inside the definition's since/until range (or where
// ancestry does not tell), else the reason a record there is absent.
// Outside it the definition is looked for at its own paths only, not by
// the tree search, so two commits outside it alike whose files at those
// paths are the same have the same records, whatever other files changed.
func (w *walker) outsideRange(h plumbing.Hash) (string, error) {
	if d := w.q.Definition; d.Since == "" && d.Until == "" {
		return "", nil
	}
	if o, ok := w.outside[h]; ok {
		return o, nil
	}
	o, err := w.x.OutsideRange(w.q.Definition.ID, w.hist, h.String())
	if err != nil {
		return "", fmt.Errorf("place %s against %s's since/until range: %w", h, w.q.Definition.ID, err)
	}
	w.outside[h] = o
	return o, nil
}

// extraPaths returns the walker's extra paths, sorted: a slice that is
// never changed (a path added makes a new one).
func (w *walker) extraPaths() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.extraSorted) != len(w.extra) {
		w.extraSorted = slices.Sorted(maps.Keys(w.extra))
	}
	return w.extraSorted
}

// treeName is one name looked up in one tree.
type treeName struct {
	tree plumbing.Hash
	name string
}

// maxLookups bounds the remembered lookups (about 100 bytes each; the
// walkers of one log share them).
const maxLookups = 1 << 15

// lookup finds path p in tree t, directory by directory, remembering each
// step by tree id: consecutive commits share most of the directories on
// the way to a file, so a walk decodes only the directories that changed
// (as git's own path-limited walk skips equal subtrees).
func (w *walker) lookup(t plumbing.Hash, p string) (object.TreeEntry, bool, error) {
	cur := t
	for rest := p; ; {
		name, after, more := strings.Cut(rest, "/")
		rest = after
		k := treeName{cur, name}
		e, ok := w.dirs[k]
		if !ok {
			var err error
			if e, err = findInTree(w.objs, cur, name); err != nil {
				return object.TreeEntry{}, false, err
			}
			if len(w.dirs) >= maxLookups {
				clear(w.dirs)
			}
			w.dirs[k] = e
		}
		if e.Name == "" {
			return object.TreeEntry{}, false, nil
		}
		if !more {
			return e, true, nil
		}
		if e.Mode != filemode.Dir {
			return object.TreeEntry{}, false, nil
		}
		cur = e.Hash
	}
}

// findInTree returns the entry name of tree t, a zero entry when there is
// none. It scans the tree's encoding rather than decoding every entry: a
// walk looks up one name in thousands of trees.
func findInTree(objs *source.Objects, t plumbing.Hash, name string) (object.TreeEntry, error) {
	data, err := objs.Read(t, plumbing.TreeObject)
	if err != nil {
		return object.TreeEntry{}, err
	}
	for len(data) > 0 {
		var e rawEntry
		if e, data, err = nextEntry(t, data); err != nil {
			return object.TreeEntry{}, err
		}
		if string(e.name) == name {
			return object.TreeEntry{Name: name, Mode: e.mode, Hash: e.hash}, nil
		}
	}
	return object.TreeEntry{}, nil
}

// rawEntry is one entry of a tree's encoding; its name is a view into the
// tree's bytes.
type rawEntry struct {
	name []byte
	mode filemode.FileMode
	hash plumbing.Hash
}

// nextEntry decodes the first entry of data, the encoding of tree t (mode
// SP name NUL 20-byte id, for each entry), and returns the rest.
func nextEntry(t plumbing.Hash, data []byte) (rawEntry, []byte, error) {
	sp := bytes.IndexByte(data, ' ')
	nul := bytes.IndexByte(data, 0)
	if sp <= 0 || nul < sp || nul+1+hashLen > len(data) {
		return rawEntry{}, nil, fmt.Errorf("read tree %s: malformed entry", t)
	}
	var mode uint32
	for _, c := range data[:sp] {
		if c < '0' || c > '7' || mode > 1<<28 {
			return rawEntry{}, nil, fmt.Errorf("read tree %s: malformed mode %q", t, data[:sp])
		}
		mode = mode<<3 | uint32(c-'0')
	}
	e := rawEntry{name: data[sp+1 : nul], mode: filemode.FileMode(mode)}
	copy(e.hash[:], data[nul+1:nul+1+hashLen])
	return e, data[nul+1+hashLen:], nil
}

// hashLen is the length of an object id in a tree entry (SHA-1).
const hashLen = 20

// sourcesDiffer reports whether the tree search's inputs differ between
// two trees: a .ts/.tsx file added, removed or changed whose bytes, on
// either side, hold the query's anchors (the search parses no other
// file). The files that differ are listed once for all walkers (see
// treeDiff); each blob is tested once over the run.
func (w *walker) sourcesDiffer(a, b plumbing.Hash, skipped []string) (bool, error) {
	blobs, err := w.diff.changed(w.objs, a, b)
	if err != nil {
		return false, err
	}
	for _, h := range blobs {
		held, err := w.x.SearchConsiders(w.q.Definition.ID, h.String(), skipped, func() ([]byte, error) { return w.diff.read(w, h) })
		if held || err != nil {
			return held, err
		}
	}
	return false, nil
}

// treeDiff lists the .ts/.tsx files that differ between two trees, for
// the last pair of trees asked about: at a commit, every walker whose
// definition's files are absent compares the same two trees. It keeps the
// bytes of the blobs read for that pair, which walkers with other anchors
// test again.
type treeDiff struct {
	a, b  plumbing.Hash
	blobs []plumbing.Hash
	data  map[plumbing.Hash][]byte
}

// changed lists the blobs, on either side, of the .ts/.tsx files added,
// removed or changed between trees a and b. Only subtrees whose ids differ
// are read (as git diff-tree does).
func (d *treeDiff) changed(objs *source.Objects, a, b plumbing.Hash) ([]plumbing.Hash, error) {
	if d.blobs != nil && d.a == a && d.b == b {
		return d.blobs, nil
	}
	blobs := []plumbing.Hash{}
	if err := diffTrees(objs, a, b, &blobs); err != nil {
		return nil, err
	}
	d.a, d.b, d.blobs, d.data = a, b, blobs, nil
	return blobs, nil
}

// read returns a blob's bytes as readBlob does, once per pair of trees.
func (d *treeDiff) read(w *walker, h plumbing.Hash) ([]byte, error) {
	if data, ok := d.data[h]; ok {
		return data, nil
	}
	data, err := w.readBlob(h)
	if err != nil {
		return nil, err
	}
	if d.data == nil {
		d.data = map[plumbing.Hash][]byte{}
	}
	d.data[h] = data
	return data, nil
}

// diffTrees appends to blobs those of the .ts/.tsx files that differ
// between trees a and b (the zero id for none). Git sorts a tree's
// entries by name, a directory's as if it ended in "/", so the two
// encodings are merged in one pass, as git diff-tree does. An entry not
// matched by an equal one on the other side counts as changed, so a tree
// out of order lists too much, never too little.
func diffTrees(objs *source.Objects, a, b plumbing.Hash, blobs *[]plumbing.Hash) error {
	if a == b {
		return nil
	}
	da, err := treeData(objs, a)
	if err != nil {
		return err
	}
	db, err := treeData(objs, b)
	if err != nil {
		return err
	}
	var ea, eb rawEntry
	haveA, haveB := false, false
	for {
		if !haveA && len(da) > 0 {
			if ea, da, err = nextEntry(a, da); err != nil {
				return err
			}
			haveA = true
		}
		if !haveB && len(db) > 0 {
			if eb, db, err = nextEntry(b, db); err != nil {
				return err
			}
			haveB = true
		}
		var o, n *rawEntry
		switch {
		case !haveA && !haveB:
			return nil
		case !haveB:
			o = &ea
		case !haveA:
			n = &eb
		default:
			switch c := gitOrder(ea, eb); {
			case c < 0:
				o = &ea
			case c > 0:
				n = &eb
			default:
				o, n = &ea, &eb
			}
		}
		if o != nil {
			haveA = false
		}
		if n != nil {
			haveB = false
		}
		if o != nil && n != nil && o.hash == n.hash && o.mode == n.mode {
			continue
		}
		if err := diffEntries(objs, o, n, blobs); err != nil {
			return err
		}
	}
}

// gitOrder compares two entries as git sorts a tree's: by name, a
// directory's name followed by "/" (git's base_name_compare).
func gitOrder(a, b rawEntry) int {
	l := min(len(a.name), len(b.name))
	if c := bytes.Compare(a.name[:l], b.name[:l]); c != 0 {
		return c
	}
	next := func(e rawEntry) byte {
		if l < len(e.name) {
			return e.name[l]
		}
		return dirSlash(e)
	}
	return cmp.Compare(next(a), next(b))
}

// dirSlash is the byte git sorts after a tree entry's name: '/' for a
// directory, 0 for anything else.
func dirSlash(e rawEntry) byte {
	if e.mode == filemode.Dir {
		return '/'
	}
	return 0
}

// diffEntries is diffTrees for one name whose entries differ (nil where
// the name is absent).
func diffEntries(objs *source.Objects, o, n *rawEntry, blobs *[]plumbing.Hash) error {
	dir := func(e *rawEntry) plumbing.Hash {
		if e != nil && e.mode == filemode.Dir {
			return e.hash
		}
		return plumbing.ZeroHash
	}
	if da, dn := dir(o), dir(n); !da.IsZero() || !dn.IsZero() {
		if err := diffTrees(objs, da, dn, blobs); err != nil {
			return err
		}
	}
	for _, e := range []*rawEntry{o, n} {
		if e == nil || e.mode != filemode.Regular && e.mode != filemode.Executable && e.mode != filemode.Deprecated {
			// Directories are compared above; the search skips links.
			continue
		}
		if bytes.HasSuffix(e.name, []byte(".ts")) || bytes.HasSuffix(e.name, []byte(".tsx")) {
			*blobs = append(*blobs, e.hash)
		}
	}
	return nil
}

// treeData returns tree t's encoding; none for the zero id.
func treeData(objs *source.Objects, t plumbing.Hash) ([]byte, error) {
	if t.IsZero() {
		return nil, nil
	}
	return objs.Read(t, plumbing.TreeObject)
}

// readBlob reads a blob for SearchConsiders; one over source.MaxBlobSize
// reads as empty, since the search skips it too.
func (w *walker) readBlob(h plumbing.Hash) ([]byte, error) {
	data, err := source.ReadBlob(w.repo, h)
	if errors.As(err, new(*source.TooLargeError)) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	return data, nil
}

// walkRange lists the commits reachable from to and not from from (nil:
// none excluded), newest first as git log orders them by default: a
// queue by committer date, ties in the order the commits were reached.
// As in git's revision walk, the commits reachable from from are marked
// in the same queue, and the walk ends once only marked commits are left
// in it, so the history behind from is not read. Of each commit only its
// header is read (source.Objects.ReadCommitHeader).
func walkRange(objs *source.Objects, to, from *object.Commit) ([]node, commits, error) {
	trees := commits{}
	excluded := map[plumbing.Hash]bool{}
	q := &commitQueue{}
	push := func(h plumbing.Hash, ci commitInfo) {
		trees[h] = ci
		q.add(h, ci.when)
	}
	if from != nil {
		excluded[from.Hash] = true
		push(from.Hash, infoOf(from))
	}
	if _, ok := trees[to.Hash]; !ok {
		push(to.Hash, infoOf(to))
	}
	var out []node
	for q.Len() > 0 && !q.allExcluded(excluded) {
		h := heap.Pop(q).(queued).hash
		ci := trees[h]
		ex := excluded[h]
		if !ex {
			n := node{hash: h, tree: ci.tree}
			if len(ci.parents) > 0 {
				n.parent, n.hasParent = ci.parents[0], true
			}
			out = append(out, n)
		}
		for _, p := range ci.parents {
			if ex {
				excluded[p] = true
			}
			if _, ok := trees[p]; ok {
				continue
			}
			pc, err := readCommit(objs, p)
			if err != nil {
				return nil, nil, fmt.Errorf("read commit %s (parent of %s): %w; log needs the whole history", p, h, err)
			}
			push(p, pc)
		}
	}
	return out, trees, nil
}

// infoOf is what walks need of a decoded commit.
func infoOf(c *object.Commit) commitInfo {
	return commitInfo{tree: c.TreeHash, parents: c.ParentHashes, when: c.Committer.When}
}

// readCommit reads what walks need of commit h.
func readCommit(objs *source.Objects, h plumbing.Hash) (commitInfo, error) {
	ch, err := objs.ReadCommitHeader(h)
	if err != nil {
		return commitInfo{}, err
	}
	return commitInfo{tree: ch.Tree, parents: ch.Parents, when: ch.Committed}, nil
}

// allExcluded reports whether every queued commit is excluded.
func (q *commitQueue) allExcluded(excluded map[plumbing.Hash]bool) bool {
	for _, it := range q.items {
		if !excluded[it.hash] {
			return false
		}
	}
	return true
}

// commitInfo is what walks need of a commit.
type commitInfo struct {
	tree    plumbing.Hash
	parents []plumbing.Hash
	when    time.Time
}

// walkHistory is the History a log places commits by: the parents and
// times of the commits its walk read come from the walk's table (placing
// a commit against a release tag reads the commits between them, most of
// which the walk read already), the others from the pack files.
type walkHistory struct {
	source.History
	read commits
}

func (h *walkHistory) Parents(commit string) ([]string, time.Time, error) {
	if ci, ok := h.read[plumbing.NewHash(commit)]; ok {
		ps := make([]string, len(ci.parents))
		for i, p := range ci.parents {
			ps[i] = p.String()
		}
		return ps, ci.when, nil
	}
	return h.History.Parents(commit)
}

// commits holds the commits a walk read, so a later walk over the same
// commits does not decode them again.
type commits map[plumbing.Hash]commitInfo

// get returns what h holds, reading the commit when it is not held.
func (cs commits) get(objs *source.Objects, h plumbing.Hash) (commitInfo, error) {
	if ci, ok := cs[h]; ok {
		return ci, nil
	}
	ci, err := readCommit(objs, h)
	if err != nil {
		return commitInfo{}, fmt.Errorf("read commit %s: %w; log needs the whole history", h, err)
	}
	return ci, nil
}

// ancestors calls visit on start and every commit reachable from it, each
// once; visit returning false stops the walk below that commit.
func ancestors(objs *source.Objects, cs commits, start plumbing.Hash, visit func(plumbing.Hash, commitInfo) bool) error {
	stack := []plumbing.Hash{start}
	seen := map[plumbing.Hash]bool{start: true}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ci, err := cs.get(objs, h)
		if err != nil {
			return err
		}
		if !visit(h, ci) {
			continue
		}
		for _, p := range ci.parents {
			if !seen[p] {
				seen[p] = true
				stack = append(stack, p)
			}
		}
	}
	return nil
}

// commitQueue orders commits newest committer date first; equal dates in
// the order they were added (as git's commit queue).
type commitQueue struct {
	items []queued
	seq   int
}

type queued struct {
	hash plumbing.Hash
	when time.Time
	seq  int
}

func (q *commitQueue) add(h plumbing.Hash, when time.Time) {
	heap.Push(q, queued{hash: h, when: when, seq: q.seq})
	q.seq++
}

func (q *commitQueue) Len() int { return len(q.items) }
func (q *commitQueue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	if !a.when.Equal(b.when) {
		return a.when.After(b.when)
	}
	return a.seq < b.seq
}
func (q *commitQueue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *commitQueue) Push(x any)    { q.items = append(q.items, x.(queued)) }
func (q *commitQueue) Pop() any {
	it := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return it
}

// releaseSlop is how much older than the oldest commit asked about a
// commit may be and still be walked when looking for releases: a commit's
// ancestors are older than it but for clock skew, and git's name-rev
// allows the same day.
const releaseSlop = 24 * time.Hour

// firstReleases returns a function that names the oldest release (by
// version) containing a commit committed at or after since. Each release's
// ancestors are walked once, oldest version first, and a walk stops at
// commits an older release already holds (every ancestor of such a commit
// is held too) and at commits older than since by more than releaseSlop,
// which cannot be ancestors of the commits asked about.
func firstReleases(objs *source.Objects, cs commits, releases []Release, since time.Time) (func(plumbing.Hash) string, error) {
	cutoff := since.Add(-releaseSlop)
	first := map[plumbing.Hash]int{}
	for i, r := range releases {
		if _, ok := first[r.Commit]; ok {
			continue
		}
		err := ancestors(objs, cs, r.Commit, func(h plumbing.Hash, c commitInfo) bool {
			if _, ok := first[h]; ok || c.when.Before(cutoff) {
				return false
			}
			first[h] = i
			return true
		})
		if err != nil {
			return nil, fmt.Errorf("release %s: %w", r.Name, err)
		}
	}
	return func(h plumbing.Hash) string {
		if i, ok := first[h]; ok {
			return releases[i].Name
		}
		return ""
	}, nil
}

// Releases lists repo's release tags (vMAJOR.MINOR.PATCH, as
// releases.SelectReleases chooses them), oldest version first, each with
// the commit it names; none when there are none. The tags are read in one
// pass over the references (resolving each by name would read the packed
// refs once per tag).
func Releases(repo *git.Repository) ([]Release, error) {
	iter, err := repo.Tags()
	if err != nil {
		return nil, fmt.Errorf("list tags: %w", err)
	}
	target := map[string]plumbing.Hash{}
	err = iter.ForEach(func(r *plumbing.Reference) error {
		target[r.Name().Short()] = r.Hash()
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list tags: %w", err)
	}
	chosen, err := releases.SelectReleases(slices.Sorted(maps.Keys(target)), releases.Selection{})
	if err != nil {
		// No release tags: no commit is in a release.
		return nil, nil
	}
	out := make([]Release, 0, len(chosen))
	for _, t := range chosen {
		h, err := peel(repo, target[t.Name])
		if err != nil {
			return nil, fmt.Errorf("release tag %s: %w", t.Name, err)
		}
		out = append(out, Release{Name: t.Name, Commit: h})
	}
	return out, nil
}

// peel follows annotated tags (of tags) to the commit they name.
func peel(repo *git.Repository, h plumbing.Hash) (plumbing.Hash, error) {
	for range 16 {
		t, err := repo.TagObject(h)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return h, nil
		}
		if err != nil {
			return h, err
		}
		if t.TargetType != plumbing.TagObject && t.TargetType != plumbing.CommitObject {
			return h, fmt.Errorf("names a %s, not a commit", t.TargetType)
		}
		h = t.Target
	}
	return h, errors.New("a chain of more than 16 tags")
}
