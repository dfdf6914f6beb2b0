package locate

import (
	"sync"
	"sync/atomic"

	sitter "github.com/smacker/go-tree-sitter"
)

// A first build spends most of its CPU compiling the query groups it runs
// (see group.go), and before it locates anything it places the commit
// against the catalog's since/until tags, on one goroutine: on a first
// build of a commit that is a walk of thousands of commits, a third of a
// second during which the other cores have nothing to do. compileAhead
// gives them the compiling: while such a walk runs, one goroutine
// compiles, definition by definition, the groups each runs first (its
// newest shape's query and fact queries). A group is compiled once per
// process, whoever asks first, so nothing is compiled twice. Only a first
// build compiles ahead (no record cached, in memory or on disk): a later
// one finds most records cached and runs few groups, and when its
// placements are kept on disk it walks nothing either.

// ahead compiles an Extractor's first groups while a walk runs.
type ahead struct {
	x       *Extractor
	once    sync.Once
	stopped atomic.Bool
	done    chan struct{}
}

// walking starts compiling ahead, once: the lineage calls it when a
// placement needs a walk of the history. It does not start when a record
// is cached or when every CPU token is taken (other Extract calls are
// locating).
func (a *ahead) walking() {
	a.once.Do(func() {
		if !a.x.results.empty() {
			return
		}
		select {
		case a.x.cpu <- struct{}{}:
		default:
			return
		}
		a.done = make(chan struct{})
		go func() {
			defer func() { <-a.x.cpu; close(a.done) }()
			for _, g := range a.x.firstGroups() {
				if a.stopped.Load() {
					return
				}
				// An error is reported where the group runs.
				_, _ = g.group.forLanguage(g.lang)
			}
		}()
	})
}

// stop ends compiling ahead after the group under way, and waits for it.
func (a *ahead) stop() {
	a.once.Do(func() {}) // a walk that starts later compiles nothing
	a.stopped.Store(true)
	if a.done != nil {
		<-a.done
	}
}

// firstGroup is a query group and the grammar it first runs with.
type firstGroup struct {
	group *queryGroup
	lang  *sitter.Language
}

// firstGroups lists, in catalog order, the groups compiled when first run
// (known ones) that each definition's newest shape runs: its query's, for
// the grammar of its first path, then its facts'.
func (x *Extractor) firstGroups() []firstGroup {
	var out []firstGroup
	seen := map[*queryGroup]bool{}
	add := func(q *query, lang *sitter.Language) {
		if q != nil && q.group.widened && !seen[q.group] {
			seen[q.group] = true
			out = append(out, firstGroup{q.group, lang})
		}
	}
	var facts func([]*compiledFact, *sitter.Language)
	facts = func(fs []*compiledFact, lang *sitter.Language) {
		for _, f := range fs {
			add(f.query, lang)
			facts(f.fields, lang)
		}
	}
	for _, cd := range x.defs {
		s := cd.shapes[0]
		lang := langTS
		if ps := s.paths(); len(ps) > 0 {
			lang = languageFor(ps[0])
		}
		add(s.query, lang)
		facts(s.facts, lang)
	}
	return out
}
