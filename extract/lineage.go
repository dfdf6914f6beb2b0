package extract

import (
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/keyfindings/keyfindings/findings"
)

// History is the commit graph behind a snapshot, for questions of
// ancestry (is this commit before the release that introduced a finding?).
// Implementations must be comparable: the Extractor keeps what it learnt
// of a history under it.
type History interface {
	// TagCommit returns the commit a tag names (annotated tags peeled),
	// "" when the repository has no such tag.
	TagCommit(tag string) (string, error)
	// Parents returns a commit's parents, ErrNotFound when the commit is
	// not in this copy of the repository (beyond a shallow fetch).
	Parents(commit string) ([]string, error)
}

// Ancestry is how a commit stands to a tagged commit.
type Ancestry int

const (
	// AncestryUnknown: the history cannot tell (a plain directory, a tag
	// the repository lacks, a commit that shares no history with the
	// tag, or history missing from a shallow copy).
	AncestryUnknown Ancestry = iota
	// Descends: the commit is the tagged commit or descends from it.
	Descends
	// NotDescends: the commit shares history with the tagged commit but
	// does not descend from it (it is older, or on a branch that left
	// before the tag).
	NotDescends
)

// gitHistory is the History of a go-git repository.
type gitHistory struct {
	repo *git.Repository
}

func (h gitHistory) TagCommit(tag string) (string, error) {
	if _, err := h.repo.Reference(plumbing.NewTagReferenceName(tag), false); err != nil {
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return "", nil
		}
		return "", fmt.Errorf("look up tag %s: %w", tag, err)
	}
	c, err := ResolveCommit(h.repo, "refs/tags/"+tag)
	if err != nil {
		// A tag whose commit is not in this copy: ancestry cannot tell.
		return "", nil
	}
	return c.Hash.String(), nil
}

func (h gitHistory) Parents(commit string) ([]string, error) {
	c, err := h.repo.CommitObject(plumbing.NewHash(commit))
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("read commit %s: %w", commit, err)
	}
	out := make([]string, len(c.ParentHashes))
	for i, p := range c.ParentHashes {
		out[i] = p.String()
	}
	return out, nil
}

// lineage answers ancestry questions for an Extractor, remembering what
// it learnt per history: each commit's parents are read once, and for
// each tagged commit asked about, every commit visited keeps its answer,
// so the releases of a whole history cost one walk per tag named in the
// catalog, not one per release.
type lineage struct {
	mu     sync.Mutex
	graphs map[History]*graph
}

// graph is what is known of one history.
type graph struct {
	h       History
	parents map[string][]string
	// gone marks commits missing from the copy.
	gone  map[string]bool
	tags  map[string]string
	walks map[string]*tagWalk
}

// Bits of what a commit's ancestry holds, relative to one tagged commit.
const (
	reachesTag     uint8 = 1 << iota // the tagged commit is among its ancestors (or is it)
	sharesHistory                    // some ancestor is an ancestor of the tagged commit
	historyMissing                   // some ancestor is missing from the copy
)

// tagWalk holds the answers for one tagged commit.
type tagWalk struct {
	target string
	// before holds the tagged commit's proper ancestors.
	before map[string]bool
	// partial: the tagged commit's own history is incomplete here.
	partial bool
	memo    map[string]uint8
}

func newLineage() *lineage { return &lineage{graphs: map[History]*graph{}} }

// relation tells how commit stands to the commit tag names in h. Callers
// hold the Extractor's source lock (it reads the repository).
func (l *lineage) relation(h History, commit, tag string) (Ancestry, error) {
	if h == nil || commit == "" {
		return AncestryUnknown, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	g, ok := l.graphs[h]
	if !ok {
		g = &graph{h: h, parents: map[string][]string{}, gone: map[string]bool{}, tags: map[string]string{}, walks: map[string]*tagWalk{}}
		l.graphs[h] = g
	}
	target, ok := g.tags[tag]
	if !ok {
		var err error
		if target, err = h.TagCommit(tag); err != nil {
			return AncestryUnknown, err
		}
		g.tags[tag] = target
	}
	if target == "" {
		return AncestryUnknown, nil
	}
	w, err := g.walk(target)
	if err != nil {
		return AncestryUnknown, err
	}
	bits, err := g.answer(w, commit)
	if err != nil {
		return AncestryUnknown, err
	}
	switch {
	case bits&reachesTag != 0:
		return Descends, nil
	case bits&historyMissing != 0 || w.partial:
		return AncestryUnknown, nil
	case bits&sharesHistory != 0:
		return NotDescends, nil
	}
	return AncestryUnknown, nil
}

// parentsOf returns a commit's parents, read once; ok is false when the
// commit is missing from the copy.
func (g *graph) parentsOf(c string) ([]string, bool, error) {
	if ps, ok := g.parents[c]; ok {
		return ps, true, nil
	}
	if g.gone[c] {
		return nil, false, nil
	}
	ps, err := g.h.Parents(c)
	if errors.Is(err, ErrNotFound) {
		g.gone[c] = true
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	g.parents[c] = ps
	return ps, true, nil
}

// walk returns the tagWalk of target, listing its ancestors on first use.
func (g *graph) walk(target string) (*tagWalk, error) {
	if w, ok := g.walks[target]; ok {
		return w, nil
	}
	w := &tagWalk{target: target, before: map[string]bool{}, memo: map[string]uint8{}}
	stack := []string{target}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ps, ok, err := g.parentsOf(c)
		if err != nil {
			return nil, err
		}
		if !ok {
			w.partial = true
			continue
		}
		for _, p := range ps {
			if !w.before[p] {
				w.before[p] = true
				stack = append(stack, p)
			}
		}
	}
	g.walks[target] = w
	return w, nil
}

// answer computes the bits of commit for w, and of every commit visited on
// the way (depth first, without recursion: histories are deep).
func (g *graph) answer(w *tagWalk, commit string) (uint8, error) {
	known := func(c string) (uint8, bool) {
		switch {
		case c == w.target:
			return reachesTag | sharesHistory, true
		case w.before[c]:
			return sharesHistory, true
		}
		b, ok := w.memo[c]
		return b, ok
	}
	type frame struct {
		c        string
		parents  []string
		expanded bool
	}
	stack := []*frame{{c: commit}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		if _, ok := known(f.c); ok {
			stack = stack[:len(stack)-1]
			continue
		}
		if !f.expanded {
			f.expanded = true
			ps, ok, err := g.parentsOf(f.c)
			if err != nil {
				return 0, err
			}
			if !ok {
				w.memo[f.c] = historyMissing
				stack = stack[:len(stack)-1]
				continue
			}
			f.parents = ps
			for _, p := range ps {
				if _, ok := known(p); !ok {
					stack = append(stack, &frame{c: p})
				}
			}
			continue
		}
		var bits uint8
		for _, p := range f.parents {
			b, _ := known(p)
			bits |= b
		}
		w.memo[f.c] = bits
		stack = stack[:len(stack)-1]
	}
	b, _ := known(commit)
	return b, nil
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
// until tags: nil when inside, or when ancestry cannot tell (a plain
// directory, a tag the repository lacks, an unrelated commit).
func (x *Extractor) rangeAt(snap Snapshot, d *findings.Definition) (*outside, error) {
	if d.Since == "" && d.Until == "" {
		return nil, nil
	}
	h := snap.History()
	if h == nil {
		return nil, nil
	}
	x.src.Lock()
	defer x.src.Unlock()
	if d.Since != "" {
		a, err := x.lineage.relation(h, snap.Commit(), d.Since)
		if err != nil {
			return nil, err
		}
		if a == NotDescends {
			return &outside{reason: "introduced in " + d.Since, where: "does not descend from " + d.Since + " (since:)"}, nil
		}
	}
	if d.Until != "" {
		a, err := x.lineage.relation(h, snap.Commit(), d.Until)
		if err != nil {
			return nil, err
		}
		if a == Descends {
			return &outside{reason: "removed in " + d.Until, where: "descends from " + d.Until + " (until:)"}, nil
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
