// Package history follows one finding through a repository's commits: the
// commits at which its record changed against the commit's first parent
// (its cited bytes, its facts, its status or its path), each with the
// release that first shipped it and the diff of the record.
//
// The finding is located at each commit as build locates it (the extract
// package), so it is followed through file moves (the tree search) and
// through rewrites of its code, where `git log -L` follows a line range by
// its text in one file. Only commits that change a file the record can
// depend on are located at all: see inputs.go.
package history

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/locate"
	"github.com/keyfindings/keyfindings/source"
)

// Entry kinds: what happened to the record at a commit.
const (
	// KindChanged: located on both sides, the cited bytes differ.
	KindChanged = "changed"
	// KindFacts: the same bytes, other facts (taken from outside the span).
	KindFacts = "facts"
	// KindMoved: the same bytes and facts in another file.
	KindMoved = "moved"
	// KindAppeared: located at the commit, not at its parent (or the
	// commit has no parent).
	KindAppeared = "appeared"
	// KindDisappeared: located at the parent, not at the commit.
	KindDisappeared = "disappeared"
	// KindStatus: located on neither side, but the status differs
	// (missing ↔ ambiguous).
	KindStatus = "status"
	// KindTouched (only with Query.AllCommits): a file the record is read
	// from changed, the record did not (at most its lines shifted).
	KindTouched = "touched"
)

// Query says which finding to follow over which commits.
type Query struct {
	// ID is the record id (a definition id, or <id>-<key> for a
	// definition with expect: all).
	ID string
	// Definition is the definition that produces the record.
	Definition *findings.Definition
	// To is the newest commit walked.
	To *object.Commit
	// From, when set, excludes the commits reachable from it (git log
	// From..To).
	From *object.Commit
	// AllCommits also lists the commits that changed a file the record is
	// read from without changing the record (KindTouched), a line shift
	// among them.
	AllCommits bool
	// Repo is the source's web URL, recorded as source.repo; WebURL the
	// permalink base ("" for none).
	Repo, WebURL string
	// CacheDir keeps located records between runs (locate.CompileOptions).
	CacheDir string
	// Releases are the release tags, oldest version first (see
	// releases.SelectReleases), for Entry.Release.
	Releases []Release
}

// Release is a release tag and the commit it names.
type Release struct {
	Name   string
	Commit plumbing.Hash
}

// Entry is one commit at which the record changed.
type Entry struct {
	Commit  string
	Parent  string // the first parent, "" for a root commit
	Date    time.Time
	Author  string
	Email   string
	Subject string
	// Release is the oldest release tag (by version) whose commit has
	// this commit as an ancestor, "" when none has.
	Release string
	Kind    string
	// Old and New are the record at the parent and at the commit; Old is
	// nil for a root commit, either is nil where the definition located
	// records but none with this id.
	Old, New *findings.Record
	// OldDoc and NewDoc are the documents the records were located in,
	// without their findings (their source blocks, for citations); OldDoc
	// is nil for a root commit.
	OldDoc, NewDoc *findings.Document
	// Diff compares Old and New: the excerpt hunks with real line numbers
	// and the fact changes.
	Diff *diff.FindingDiff
}

// History is the result of Log.
type History struct {
	ID      string
	Title   string
	Entries []*Entry
	// Stats count the work done, for tests and benchmarks.
	Stats Stats
}

// Stats count what a Log call read.
type Stats struct {
	// Commits is the number of commits walked.
	Commits int
	// Compared is the number of commits whose inputs differed from their
	// first parent's, so that both records were located and compared.
	Compared int
	// Passes is the number of walks (a new path the record was found at
	// means walking again, see LogEach).
	Passes int
	// Located is the number of commits whose records were located, over
	// every pass: a commit compared in an earlier pass is not located
	// again.
	Located int
	// Parses is the number of files parsed by the whole LogEach call, for
	// all the records it followed.
	Parses int64
}

// ErrShallow reports a repository that holds only part of its history.
var ErrShallow = errors.New("the repository is a shallow copy, without the history a log needs")

// Finding names one record to follow: its id and the definition that
// produces it.
type Finding struct {
	ID         string
	Definition *findings.Definition
}

// LogEach is Log for each of several records over the range of q (its ID
// and Definition are not used), in one walk of the range's commits: one
// Extractor is compiled for all the records' definitions, and at each
// commit the definitions whose inputs changed there are located together,
// in one Extract call, so a file several of them read is parsed once for
// all, and they are located in parallel. The records of one definition (the
// files of an expect: all definition) are followed together, each commit
// located once for all of them. A record's history does not depend on the
// other records asked for.
func LogEach(repo *git.Repository, q Query, fs []Finding) ([]*History, error) {
	if s, err := repo.Storer.Shallow(); err == nil && len(s) > 0 {
		return nil, ErrShallow
	}
	objs := source.NewObjects(repo)
	defer objs.Close()
	nodes, read, err := walkRange(objs, q.To, q.From)
	if err != nil {
		return nil, err
	}
	groups := byDefinition(fs, q.AllCommits)
	cat, err := catalogOf(fs)
	if err != nil {
		return nil, err
	}
	x, err := locate.CompileWith(cat, locate.CompileOptions{CacheDir: q.CacheDir, PlacesInMemory: true})
	if err != nil {
		return nil, err
	}
	dirs, diff, pd := map[treeName]object.TreeEntry{}, &treeDiff{}, &pathDiff{}
	// Commits are placed against release tags (since/until, search_from)
	// from their headers in the pack files, by the walkers and the
	// snapshots alike.
	packs, closeHist := source.NewPackHistory(repo)
	defer closeHist()
	hist := &walkHistory{History: packs, read: read}
	ws := make([]*walker, len(groups))
	for i, g := range groups {
		fq := q
		fq.ID, fq.Definition = fs[g[0]].ID, fs[g[0]].Definition
		ids := make([]string, len(g))
		for j, k := range g {
			ids[j] = fs[k].ID
		}
		w := newWalker(repo, x, fq, ids)
		w.commits, w.dirs, w.diff, w.pdiff, w.objs, w.hist = read, dirs, diff, pd, objs, hist
		ws[i] = w
	}
	hss, err := follow(ws, nodes)
	if err != nil {
		return nil, err
	}
	out := make([]*History, len(fs))
	var since time.Time
	for i, g := range groups {
		for j, h := range hss[i] {
			h.Stats.Parses = x.Parses()
			for _, e := range h.Entries {
				if since.IsZero() || e.Date.Before(since) {
					since = e.Date
				}
			}
			out[g[j]] = h
		}
	}
	if since.IsZero() {
		return out, nil
	}
	first, err := firstReleases(objs, read, q.Releases, since)
	if err != nil {
		return nil, err
	}
	for _, h := range out {
		for _, e := range h.Entries {
			e.Release = first(plumbing.NewHash(e.Commit))
		}
	}
	return out, nil
}

// catalogOf is the catalog of fs's definitions, each once, in the order
// each first appears.
func catalogOf(fs []Finding) (*findings.Catalog, error) {
	cat := &findings.Catalog{}
	seen := map[string]*findings.Definition{}
	for _, f := range fs {
		d, ok := seen[f.Definition.ID]
		if ok && d != f.Definition {
			return nil, fmt.Errorf("two definitions with the id %s", d.ID)
		}
		if !ok {
			seen[f.Definition.ID] = f.Definition
			cat.Definitions = append(cat.Definitions, f.Definition)
		}
	}
	return cat, nil
}

// byDefinition groups the positions of fs by definition, in the order
// each definition first appears. With allCommits every record walks
// alone: a commit is "touched" for a record only when it changed a file
// that record is read from, not one of its siblings'.
func byDefinition(fs []Finding, allCommits bool) [][]int {
	var groups [][]int
	at := map[*findings.Definition]int{}
	for i, f := range fs {
		g, ok := at[f.Definition]
		if !ok || allCommits {
			g = len(groups)
			at[f.Definition] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}

// follow walks the range for every walker's records at once, one History
// per record of each walker. The inputs a walker compares include every
// path its records were found at. A path first seen during a walk may have
// changed at a commit the walk already passed, so the walk is repeated, for
// the walkers that found a new path only, until none does (records are
// cached, so a repeated walk locates nothing again).
//
// A walk's producer decides which commits to compare a little ahead of
// the consumer that finds the paths (see walkAll), so how soon a walk
// sees a path depends on scheduling, and so may the number of walks. The
// result does not: paths are only ever added; the commits a walk compares
// grow with the paths it knows; and the last walk is one during which
// none was added, so it compared exactly the commits the final set of
// paths calls for, the least set that a walk with it adds nothing to,
// whatever the order the paths were found in.
func follow(ws []*walker, nodes []node) ([][]*History, error) {
	hss := make([][]*History, len(ws))
	for i, w := range ws {
		hss[i] = make([]*History, len(w.ids))
		for j, id := range w.ids {
			hss[i][j] = &History{ID: id, Title: w.q.Definition.Title}
		}
	}
	last := lastUses(nodes)
	m := newMemo(len(ws))
	if err := seedBoundary(ws, nodes, last, m); err != nil {
		return nil, err
	}
	active := make([]int, len(ws))
	for i := range active {
		active[i] = i
	}
	for passes := 1; len(active) > 0; passes++ {
		walking := make([]*walker, len(active))
		known := make([]int, len(active))
		for k, i := range active {
			walking[k], known[k] = ws[i], len(ws[i].extra)
		}
		entries, stats, err := walkAll(walking, nodes, last, m)
		if err != nil {
			return nil, err
		}
		var next []int
		for k, i := range active {
			stats[k].Passes = passes
			for j, h := range hss[i] {
				h.Entries, h.Stats = entries[k][j], stats[k]
			}
			if len(ws[i].extra) == known[k] {
				ws[i].done()
				continue
			}
			next = append(next, i)
		}
		active = next
	}
	return hss, nil
}

// lastUses maps each commit a walk of nodes reads (each node and its first
// parent) to the position of the last node that reads it: a walker drops
// what it remembers of a commit after that node (see forget).
func lastUses(nodes []node) map[plumbing.Hash]int {
	last := make(map[plumbing.Hash]int, len(nodes))
	for i, n := range nodes {
		last[n.hash] = i
		if n.hasParent {
			last[n.parent] = i
		}
	}
	return last
}

// node is one commit of the range: what the walk needs of it.
type node struct {
	hash, parent, tree plumbing.Hash
	hasParent          bool
}

// state is the walker's records at one commit, one per id.
type state struct {
	doc  *findings.Document
	recs []*findings.Record
}

// walker compares the records of one definition at the commits of one
// range. The walkers of one LogEach share its Extractor, commits, tree
// lookups, objects and history.
type walker struct {
	repo *git.Repository
	x    *locate.Extractor
	q    Query
	// ids are the records followed, all of q.Definition.
	ids []string
	// paths are the definition's files; extra the other files records
	// were found at (a moved file, a file: target).
	paths []string
	extra map[string]bool
	// extraSorted is extra's paths in order, for inputsDiffer.
	extraSorted []string
	// commits are the commits of the range and their parents.
	commits commits
	// dirs remembers tree lookups (see lookup); diff the .ts/.tsx files
	// that differ between the last two trees compared (sourcesDiffer).
	dirs map[treeName]object.TreeEntry
	diff *treeDiff
	// pdiff compares the paths of the node the walk is at with its
	// parent's (see pathDiff), for all walkers.
	pdiff *pathDiff
	// objs reads the commits and trees walked.
	objs *source.Objects
	// hist is the repository's history, for the since/until range;
	// outside remembers where commits stand to it (see outsideAlike).
	hist    source.History
	outside map[plumbing.Hash]string
	// skipped remembers the shapes the tree search skips at commits
	// (see searchSkipped); searchFrom is set when a shape has a
	// search_from, nshapes counts the definition's shapes.
	skipped    map[plumbing.Hash][]string
	searchFrom bool
	nshapes    int
	// compared keeps what compare gave at each commit compared, over the
	// passes of follow: a commit's records do not depend on the paths
	// compared, so a later pass reuses the entries (see walkAll).
	compared map[plumbing.Hash]comparison
	// mu guards extra, extraSorted and compared, which the walk's
	// consumer writes while its producer reads them (see walkAll).
	mu sync.Mutex
	// located counts the commits located (Stats.Located).
	located int
}

// comparison is what compare gave for each id at one commit, and whether
// it listed touched commits there (with Query.AllCommits, when a file the
// record is read from changed).
type comparison struct {
	touched bool
	entries []*Entry
}

func newWalker(repo *git.Repository, x *locate.Extractor, q Query, ids []string) *walker {
	return &walker{
		repo: repo, x: x, q: q, ids: ids,
		paths:      append([]string{q.Definition.Path}, q.Definition.Candidates...),
		diff:       &treeDiff{},
		pdiff:      &pathDiff{},
		extra:      map[string]bool{},
		compared:   map[plumbing.Hash]comparison{},
		hist:       source.NewGitHistory(repo),
		outside:    map[plumbing.Hash]string{},
		skipped:    map[plumbing.Hash][]string{},
		nshapes:    max(len(q.Definition.Shapes), 1),
		searchFrom: slices.ContainsFunc(q.Definition.Shapes, func(s findings.Shape) bool { return s.SearchFrom != "" }),
	}
}

// entry is the entry of kind for the i-th id at commit c (node n), whose
// records are cur and its parent's old (nil for a root commit).
func (w *walker) entry(n node, c *object.Commit, old, cur *state, i int, kind string) *Entry {
	e := &Entry{
		Commit: n.hash.String(), Date: c.Committer.When.UTC(),
		Author: c.Author.Name, Email: c.Author.Email, Subject: subject(c.Message),
		Kind: kind, New: cur.recs[i], NewDoc: cur.doc,
	}
	oldDoc := &findings.Document{}
	if old != nil {
		e.Parent = n.parent.String()
		e.Old, e.OldDoc, oldDoc = old.recs[i], old.doc, old.doc
	}
	e.Diff = diffRecords(w.ids[i], oldDoc, e.Old, cur.doc, e.New)
	return e
}

// diffRecords compares two records with diff.Compare, as diff does.
func diffRecords(id string, oldDoc *findings.Document, o *findings.Record, newDoc *findings.Document, n *findings.Record) *diff.FindingDiff {
	one := func(doc *findings.Document, r *findings.Record) *findings.Document {
		d := &findings.Document{Schema: doc.Schema, Source: doc.Source}
		if r != nil {
			d.Findings = []*findings.Record{r}
		}
		return d
	}
	d := diff.Compare(one(oldDoc, o), one(newDoc, n))
	for _, f := range d.Findings {
		if f.ID == id {
			return f
		}
	}
	return &diff.FindingDiff{ID: id}
}

// classify names what changed between the i-th records at a parent (old,
// nil for none) and at a commit; "" when nothing listed did. Lines alone do
// not count: a record whose bytes, facts and file are unchanged was only
// shifted by an edit elsewhere in its file (git log -L does not list such
// a commit either).
func classify(old, cur *state, i int) string {
	var o *findings.Record
	if old != nil {
		o = old.recs[i]
	}
	n := cur.recs[i]
	ol, nl := located(o), located(n)
	switch {
	case !ol && nl:
		return KindAppeared
	case ol && !nl:
		return KindDisappeared
	case !ol && !nl:
		if old != nil && status(o) != status(n) {
			return KindStatus
		}
		return ""
	}
	switch {
	case o.Location.SHA256 != n.Location.SHA256:
		return KindChanged
	case !findings.EqualFacts(o.Facts, n.Facts):
		return KindFacts
	case o.Location.Path != n.Location.Path:
		return KindMoved
	}
	return ""
}

func located(r *findings.Record) bool {
	return r != nil && r.Located()
}

// status is a record's status, "none" where the definition located other
// records but none with the id.
func status(r *findings.Record) string {
	if r == nil {
		return "none"
	}
	return string(r.Status)
}

// forget drops what the walker remembers of the commits that node k of
// the walk (n) was the last to read: where they stand to the range and
// to the shapes' search_from tags.
func (w *walker) forget(n node, k int, last map[plumbing.Hash]int) {
	for _, h := range []plumbing.Hash{n.hash, n.parent} {
		if at, ok := last[h]; ok && at == k {
			delete(w.outside, h)
			delete(w.skipped, h)
		}
	}
}

// done drops what the walker keeps between passes, once it walks no more.
func (w *walker) done() {
	w.compared, w.outside, w.skipped = nil, nil, nil
}

func (w *walker) isPath(p string) bool {
	for _, q := range w.paths {
		if p == q {
			return true
		}
	}
	return false
}

// find returns the record id among recs: the record with that id, else
// the definition's own unlocated record (missing or ambiguous), else nil
// (the definition located records, none with this id).
func find(recs []*findings.Record, def *findings.Definition, id string) *findings.Record {
	for _, r := range recs {
		if r.ID == id {
			return r
		}
	}
	for _, r := range recs {
		if r.ID == def.ID && !r.Located() {
			return r
		}
	}
	return nil
}

// FindDefinition returns the definition that produces record id: the
// definition with that id, or the expect: all definition whose id and a
// "-" begin it (the longest such).
func FindDefinition(cat *findings.Catalog, id string) *findings.Definition {
	var best *findings.Definition
	for _, d := range cat.Definitions {
		if d.ID == id {
			return d
		}
		if d.Expect == findings.ExpectAll && strings.HasPrefix(id, d.ID+"-") && (best == nil || len(d.ID) > len(best.ID)) {
			best = d
		}
	}
	return best
}

// subject is a commit message's first line.
func subject(msg string) string {
	line, _, _ := strings.Cut(strings.TrimLeft(msg, "\n"), "\n")
	return strings.TrimSpace(line)
}
