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
	"strings"
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
	// OldDoc and NewDoc are the documents the records belong to (for
	// citations); OldDoc is nil for a root commit.
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
// and Definition are not used). The commits of the range are read once,
// and the lookups of paths in their trees are shared; the records of one
// definition (the files of an expect: all definition) are followed in one
// walk, each commit located once for all of them.
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
	dirs := map[treeName]object.TreeEntry{}
	out := make([]*History, len(fs))
	var since time.Time
	for _, g := range byDefinition(fs, q.AllCommits) {
		fq := q
		fq.ID, fq.Definition = fs[g[0]].ID, fs[g[0]].Definition
		x, err := locate.CompileWith(&findings.Catalog{Definitions: []*findings.Definition{fq.Definition}}, locate.CompileOptions{CacheDir: q.CacheDir})
		if err != nil {
			return nil, err
		}
		ids := make([]string, len(g))
		for i, k := range g {
			ids[i] = fs[k].ID
		}
		w := newWalker(repo, x, fq, ids)
		w.commits, w.dirs, w.objs = read, dirs, objs
		hs, err := w.history(nodes)
		if err != nil {
			return nil, err
		}
		for i, h := range hs {
			for _, e := range h.Entries {
				if since.IsZero() || e.Date.Before(since) {
					since = e.Date
				}
			}
			out[g[i]] = h
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

// history walks the range for the walker's records, one History each.
func (w *walker) history(nodes []node) ([]*History, error) {
	hs := make([]*History, len(w.ids))
	for i, id := range w.ids {
		hs[i] = &History{ID: id, Title: w.q.Definition.Title}
	}
	passes := 0
	// The inputs compared include every path a record was found at. A
	// path first seen during a walk may have changed at a commit the walk
	// already passed, so the walk is repeated until no new path turns up
	// (records are cached, so a repeated walk locates nothing again).
	for {
		passes++
		known := len(w.extra)
		entries, stats, err := w.walk(nodes)
		if err != nil {
			return nil, err
		}
		stats.Passes = passes
		for i, h := range hs {
			h.Entries, h.Stats = entries[i], stats
		}
		if len(w.extra) == known {
			return hs, nil
		}
		w.keys = map[plumbing.Hash]*inputs{}
	}
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

// walker compares the records of the commits of one range.
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
	// extraSorted is extra's paths in order, for inputs.
	extraSorted []string
	keys        map[plumbing.Hash]*inputs
	// commits are the commits of the range and their parents.
	commits commits
	// dirs remembers tree lookups (see lookup).
	dirs map[treeName]object.TreeEntry
	// objs reads the commits and trees walked.
	objs *source.Objects
	// hist is the repository's history, for the since/until range;
	// outside remembers where commits stand to it (see outsideAlike).
	hist    source.History
	outside map[plumbing.Hash]string
	// states holds the records of the last commits located, bounded.
	states map[plumbing.Hash]*state
	// compared keeps what compare gave at each commit compared, over the
	// passes of history: a commit's records do not depend on the paths
	// compared, so a later pass reuses the entries (see compareAll).
	compared map[plumbing.Hash]comparison
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

// maxStates bounds the records walker keeps by commit: a commit is
// located as a child's parent and then, usually soon after, for itself.
const maxStates = 256

func newWalker(repo *git.Repository, x *locate.Extractor, q Query, ids []string) *walker {
	return &walker{
		repo: repo, x: x, q: q, ids: ids,
		paths:    append([]string{q.Definition.Path}, q.Definition.Candidates...),
		extra:    map[string]bool{},
		keys:     map[plumbing.Hash]*inputs{},
		states:   map[plumbing.Hash]*state{},
		compared: map[plumbing.Hash]comparison{},
		hist:     source.NewGitHistory(repo),
		outside:  map[plumbing.Hash]string{},
	}
}

// walk compares the records at each commit that needs it with its
// parent's: the entries of each id, newest first.
func (w *walker) walk(commits []node) ([][]*Entry, Stats, error) {
	out := make([][]*Entry, len(w.ids))
	st := Stats{Commits: len(commits)}
	for _, n := range commits {
		touched, err := w.inputsDiffer(n)
		if err != nil {
			return nil, st, err
		}
		if touched == unchangedInputs {
			continue
		}
		st.Compared++
		es, err := w.compareAll(n, touched == filesChanged && w.q.AllCommits)
		if err != nil {
			return nil, st, err
		}
		for i, e := range es {
			if e != nil {
				out[i] = append(out[i], e)
			}
		}
	}
	st.Located = w.located
	return out, st, nil
}

// compareAll is compare for every id at n, remembered by commit: a later
// pass, which compares at least the commits an earlier one did, locates
// only the commits it adds. Only whether touched commits are listed can
// differ for the same commit between passes (a path found in between
// makes a change of that file a touch), so it is part of what is
// remembered and a different answer is computed afresh.
func (w *walker) compareAll(n node, touched bool) ([]*Entry, error) {
	if c, ok := w.compared[n.hash]; ok && c.touched == touched {
		return c.entries, nil
	}
	es := make([]*Entry, len(w.ids))
	for i := range w.ids {
		e, err := w.compare(n, i, touched)
		if err != nil {
			return nil, err
		}
		es[i] = e
	}
	w.compared[n.hash] = comparison{touched: touched, entries: es}
	return es, nil
}

// compare locates the records at n and at its first parent and returns
// the entry of the i-th id for n, nil when it is not listed. With
// listTouched, a commit that leaves the record as it was is listed as
// touched.
func (w *walker) compare(n node, i int, listTouched bool) (*Entry, error) {
	cur, err := w.state(n.hash)
	if err != nil {
		return nil, err
	}
	var old *state
	if n.hasParent {
		if old, err = w.state(n.parent); err != nil {
			return nil, err
		}
	}
	kind := classify(old, cur, i)
	if kind == "" && listTouched {
		kind = KindTouched
	}
	if kind == "" {
		return nil, nil
	}
	c, err := w.repo.CommitObject(n.hash)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", n.hash, err)
	}
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
	return e, nil
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

// state returns the records at commit h, locating them when the walker
// does not hold them.
func (w *walker) state(h plumbing.Hash) (*state, error) {
	if s, ok := w.states[h]; ok {
		return s, nil
	}
	c, err := w.repo.CommitObject(h)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", h, err)
	}
	w.located++
	snap, err := source.NewGitSnapshot(w.repo, c)
	if err != nil {
		return nil, err
	}
	res, err := w.x.Extract(snap, locate.Meta{Repo: w.q.Repo, Ref: h.String(), WebURL: w.q.WebURL})
	if err != nil {
		return nil, fmt.Errorf("locate %s at %s: %w", w.q.Definition.ID, h, err)
	}
	s := &state{doc: res.Document, recs: make([]*findings.Record, len(w.ids))}
	for i, id := range w.ids {
		r := Find(res.Document, w.q.Definition, id)
		s.recs[i] = r
		if r == nil {
			continue
		}
		if r.Location != nil && !w.isPath(r.Location.Path) {
			w.extra[r.Location.Path] = true
		}
		for _, c := range r.Candidates {
			if !w.isPath(c.Path) {
				w.extra[c.Path] = true
			}
		}
	}
	if len(w.states) >= maxStates {
		clear(w.states)
	}
	w.states[h] = s
	return s, nil
}

func (w *walker) isPath(p string) bool {
	for _, q := range w.paths {
		if p == q {
			return true
		}
	}
	return false
}

// Find returns the record id of doc: the record with that id, else the
// definition's own unlocated record (missing or ambiguous), else nil (the
// definition located records, none with this id).
func Find(doc *findings.Document, def *findings.Definition, id string) *findings.Record {
	if r := doc.Find(id); r != nil {
		return r
	}
	for _, r := range doc.Findings {
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
