package locate

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/mdtext"
)

// tree-sitter analyses the whole grammar for every query it compiles
// (some milliseconds for TypeScript, whatever the query), then each
// pattern. So the catalog's query texts are compiled in groups: one
// tree-sitter query holding several texts' patterns, each text knowing
// which of the group's patterns are its own (query.first) and taking only
// their matches, with its own predicates. A file runs a group once per
// node and range it is asked for (groupMatches), so the texts of a group
// that query the same place share one walk of the tree.
//
// A group is what runs together: the main queries of a definition's
// shapes (they run on the definition's files), and apart from them its
// fact queries (they run on a located span or on captured nodes; over a
// whole file they would match everywhere).

// queryGroup is one tree-sitter query made of one or more query texts.
type queryGroup struct {
	text string

	mu       sync.Mutex
	compiled map[*sitter.Language]*sitter.Query
	// rootOnly, by grammar: every pattern of the compiled text starts at
	// the program node (topLevelOnly).
	rootOnly map[*sitter.Language]bool
	// known is set once captures and patterns are: by the first
	// compilation, or from a cache entry (queryFromMeta).
	known    bool
	captures []string // the texts' capture names, in the order of their ids
	patterns int
	// ids names every capture of the compiled query by id, the captures
	// widen added included; kinds gives the node type each added capture
	// must have, by id.
	ids   []string
	kinds map[uint32]string
	// widened groups are compiled as widen rewrites them: those rebuilt
	// from what compiling their texts as written told (queryFromMeta,
	// joinKnown). A text compiled for the first time is compiled as
	// written, so that tree-sitter checks all its steps (an impossible
	// nesting is an error only where a step is analysed).
	widened bool
	// expect, when not 0, is the number of patterns the group must
	// compile to: a group joined from what compiling its texts told
	// (joinKnown), whose captures are numbered by its first compilation.
	expect int
	// members are the texts that take their matches from the group, all
	// of them set before any runs (see anchorSpan).
	members []*query
}

// tsCompiles counts the queries given to tree-sitter, for tests.
var tsCompiles atomic.Int64

// compileError is tree-sitter's refusal of a query text.
type compileError struct{ err error }

func (e *compileError) Error() string { return mdtext.OneLine(e.err.Error()) }

// forLanguage returns the group compiled for lang, compiling it on first
// use. Every grammar must give the captures and patterns the first did.
func (g *queryGroup) forLanguage(lang *sitter.Language) (*sitter.Query, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c, ok := g.compiled[lang]; ok {
		return c, nil
	}
	text, kinds := g.text, map[string]string(nil)
	if g.widened {
		if w, k, ok := widen(g.text, regularOf(lang)); ok {
			text, kinds = w, k
		}
	}
	c, err := sitter.NewQuery([]byte(text), lang)
	tsCompiles.Add(1)
	if err != nil {
		return nil, &compileError{err}
	}
	var names, ids []string
	byID := map[uint32]string{}
	for i := uint32(0); i < c.CaptureCount(); i++ {
		name := c.CaptureNameForId(i)
		ids = append(ids, name)
		if k, ok := kinds[name]; ok {
			byID[i] = k
			continue
		}
		names = append(names, name)
	}
	if g.ids == nil {
		g.ids, g.kinds = ids, byID
	} else if !slices.Equal(ids, g.ids) {
		return nil, fmt.Errorf("query compiles to other captures for TSX than for TypeScript")
	}
	if !g.known && g.expect != 0 && int(c.PatternCount()) != g.expect {
		return nil, fmt.Errorf("query group compiles to %d patterns, its texts' cache entries say %d; delete the keyfindings cache directory", c.PatternCount(), g.expect)
	}
	if !g.known {
		g.known, g.captures, g.patterns = true, names, int(c.PatternCount())
	} else if !slices.Equal(names, g.captures) || int(c.PatternCount()) != g.patterns {
		return nil, fmt.Errorf("query compiles to other captures or patterns than its cache entry says; delete the keyfindings cache directory")
	}
	if g.compiled == nil {
		g.compiled = map[*sitter.Language]*sitter.Query{}
	}
	if g.rootOnly == nil {
		g.rootOnly = map[*sitter.Language]bool{}
	}
	g.compiled[lang], g.rootOnly[lang] = c, topLevelOnly(text)
	return c, nil
}

// groupMatch is one match of a group's query: the group's pattern index
// and the captures by name. Predicates are not yet applied.
type groupMatch struct {
	pattern  int
	captures map[string][]*sitter.Node
}

// runKey names one run of a group on a file: the node it starts from,
// the byte range its captures are limited to and the one its matches
// start around.
type runKey struct {
	group      *queryGroup
	start, end uint32
	symbol     sitter.Symbol
	within     byteRange
	hasWithin  bool
	from       byteRange
	hasFrom    bool
}

// groupMatches runs g on node of f (within a byte range when set) and
// returns every match, once per file view, node, range and start: the
// texts of the group asking the same share the run. When within is set,
// only matches whose captured nodes all lie inside it are kept. When from
// is set, only the matches that start at a node overlapping it, or whose
// parent does, are looked for: those of the group's matches that hold a
// node inside from (see anchorSpan), and maybe some others.
func (f *parsedFile) groupMatches(g *queryGroup, node *sitter.Node, within, from *byteRange) ([]groupMatch, error) {
	key := runKey{group: g, start: node.StartByte(), end: node.EndByte(), symbol: node.Symbol()}
	if within != nil {
		key.within, key.hasWithin = *within, true
	}
	if from != nil {
		key.from, key.hasFrom = *from, true
	}
	f.runsMu.Lock()
	defer f.runsMu.Unlock()
	if ms, ok := f.runs[key]; ok && !cachesOff.runs {
		return ms, nil
	}
	span, reach := g.anchorSpan(f.Data)
	if reach == reachesNothing {
		f.remember(key, nil)
		return nil, nil
	}
	sq, err := g.forLanguage(f.lang)
	var ce *compileError
	if errors.As(err, &ce) {
		return nil, fmt.Errorf("query does not compile for this grammar: %s", ce)
	}
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	rootOnly := g.rootOnly[f.lang]
	g.mu.Unlock()
	counted.queryRuns.Add(1)
	cur := sitter.NewQueryCursor()
	defer cur.Close()
	if rootOnly && !cachesOff.rootOnly {
		startAtRootOnly(cur)
	}
	if within != nil {
		cur.SetPointRange(f.point(within.start), f.point(within.end))
	}
	switch {
	case from != nil:
		startWithin(cur, from.start, from.end)
	case reach == reachesSpan:
		startWithin(cur, span.start, span.end)
	}
	cur.Exec(sq, node)
	var out []groupMatch
	for {
		m, ok := cur.NextMatch()
		if !ok {
			break
		}
		caps := map[string][]*sitter.Node{}
		inside, kept := true, true
		for _, c := range m.Captures {
			if kind, ok := g.kinds[c.Index]; ok {
				// A step widen made a wildcard: the match is the text's
				// only where the node has the type the text names.
				if c.Node.Type() != kind {
					kept = false
				}
				continue
			}
			if within != nil && (int(c.Node.StartByte()) < within.start || int(c.Node.EndByte()) > within.end) {
				inside = false
			}
			name := g.ids[c.Index]
			caps[name] = append(caps[name], c.Node)
		}
		if inside && kept {
			out = append(out, groupMatch{pattern: int(m.PatternIndex), captures: caps})
		}
	}
	f.remember(key, out)
	return out, nil
}

// remember keeps the matches of the run key names; f.runsMu is held.
func (f *parsedFile) remember(key runKey, ms []groupMatch) {
	if f.runs == nil {
		f.runs = map[runKey][]groupMatch{}
	}
	f.runs[key] = ms
}

// What a group's anchors tell of the matches a file can give its texts
// (anchorSpan).
const (
	// reachesAnywhere: some text of the group has no anchor.
	reachesAnywhere = iota
	// reachesNothing: each text lacks one of its anchors in the file.
	reachesNothing
	// reachesSpan: every match a text keeps starts at a node that
	// overlaps the span.
	reachesSpan
)

// anchorSpan reads, from where the group's texts' anchors lie in data,
// which nodes a match that a text keeps (its predicates hold) can start
// at. Every such match holds a node whose text is each of the text's
// anchors (query.anchors), and a pattern's nodes all lie below its first
// (its root), or below their common parent for a pattern of siblings. So
// the match starts at a node that contains an occurrence of the anchor,
// or whose parent does: a node that overlaps the bytes from the anchor's
// first occurrence to the end of its last. Of a text's anchors the one
// whose occurrences lie closest together gives its span; the group's span
// covers its texts'. A text missing one of its anchors can keep no match.
// A query cursor limited to the span (startWithin) walks only the nodes
// around it and the steps of the matches it starts, where a run of the
// whole file would start matches at every node
// (TestAnchoredRunsMatchAsWhole). With cachesOff.anchoredRuns set, a
// group reaches anywhere.
func (g *queryGroup) anchorSpan(data []byte) (byteRange, int) {
	if cachesOff.anchoredRuns || len(g.members) == 0 {
		return byteRange{}, reachesAnywhere
	}
	span, found := byteRange{}, false
	for _, q := range g.members {
		if len(q.anchors) == 0 {
			return byteRange{}, reachesAnywhere
		}
		best, ok := byteRange{}, true
		for i, a := range q.anchors {
			first := bytes.Index(data, []byte(a))
			if first < 0 {
				ok = false
				break
			}
			r := byteRange{first, bytes.LastIndex(data, []byte(a)) + len(a)}
			if i == 0 || r.end-r.start < best.end-best.start {
				best = r
			}
		}
		switch {
		case !ok:
		case !found:
			span, found = best, true
		default:
			span.start, span.end = min(span.start, best.start), max(span.end, best.end)
		}
	}
	if !found {
		return byteRange{}, reachesNothing
	}
	return span, reachesSpan
}

// queryGroups partitions texts, the query texts to compile, into groups:
// per definition, the main queries of its shapes, and its fact queries.
// A text several definitions use joins the first group that has it; a
// text compiled already (compileQuery) joins none.
func queryGroups(cat *findings.Catalog, texts []string) [][]string {
	want := map[string]bool{}
	for _, t := range texts {
		// A text this process compiled already is not compiled again.
		if _, done := compiledQueries.Load(t); !done {
			want[t] = true
		}
	}
	return partition(cat, texts, want, false)
}

// partition groups the texts of texts that want holds as queryGroups
// says, or with perShape each shape's main query and its fact queries
// apart from every other shape's: the groups of texts compiled only when
// they first run, for a shape that is never tried is never compiled.
func partition(cat *findings.Catalog, texts []string, want map[string]bool, perShape bool) [][]string {
	var groups [][]string
	add := func(list []string) {
		var g []string
		for _, t := range list {
			if want[t] {
				want[t] = false
				g = append(g, t)
			}
		}
		if len(g) > 0 {
			groups = append(groups, g)
		}
	}
	for _, d := range cat.Definitions {
		var main, facts []string
		var walk func([]findings.FactSpec)
		walk = func(fs []findings.FactSpec) {
			for _, f := range fs {
				if f.Query != "" {
					facts = append(facts, f.Query)
				}
				walk(f.Fields)
			}
		}
		for _, form := range d.Forms() {
			main = append(main, form.Query)
			walk(form.Facts)
			if perShape {
				add(main)
				add(facts)
				main, facts = nil, nil
			}
		}
		add(main)
		add(facts)
	}
	for _, t := range texts {
		if want[t] {
			add([]string{t})
		}
	}
	return groups
}

// compileGroup compiles texts as one tree-sitter query and makes
// compileQuery answer each text from it. A text the group cannot hold
// exactly as it would compile alone (it does not scan as whole patterns,
// or its predicates name another text's captures), and every text of a
// group that does not compile, is compiled alone: that reports its error,
// if any, as it always did.
func compileGroup(texts []string) {
	alone := func(ts []string) {
		for _, t := range ts {
			compileQuery(t)
		}
	}
	if len(texts) < 2 {
		alone(texts)
		return
	}
	scans := make([]scannedQuery, len(texts))
	total := 0
	for i, t := range texts {
		s, ok := scanQuery(t)
		if !ok {
			alone(texts)
			return
		}
		scans[i] = s
		total += s.patterns
	}
	g := &queryGroup{text: strings.Join(texts, "\n")}
	sq, err := g.forLanguage(langTS)
	if err != nil || int(sq.PatternCount()) != total {
		alone(texts)
		return
	}
	// Every member is known before any is stored, hence before the
	// group first runs (anchorSpan reads them all).
	first := 0
	for i, t := range texts {
		q, ok := groupMember(g, sq, t, first, scans[i])
		first += scans[i].patterns
		if ok {
			g.members = append(g.members, q)
		}
	}
	for _, q := range g.members {
		storeQuery(q)
	}
	for _, t := range texts {
		if !slices.ContainsFunc(g.members, func(q *query) bool { return q.text == t }) {
			compileQuery(t)
		}
	}
}

// joinKnown makes qs, queries built from what compiling each told
// (queryFromMeta), one group compiled when any of them first runs: each
// takes its patterns at its offset in the joined text. A query whose text
// does not scan as its own patterns keeps its group of one.
func joinKnown(qs []*query) {
	var members []*query
	for _, q := range qs {
		if s, ok := scanQuery(q.text); ok && s.patterns == len(q.preds) && s.patterns > 0 {
			members = append(members, q)
		}
	}
	if len(members) < 2 {
		return
	}
	texts := make([]string, len(members))
	for i, q := range members {
		texts[i] = q.text
	}
	g := &queryGroup{text: strings.Join(texts, "\n"), widened: true, members: members}
	for _, q := range members {
		q.group, q.first = g, g.expect
		g.expect += len(q.preds)
	}
}

// groupMember is text as patterns first.. of the compiled group sq; ok is
// false when the group does not hold it as it would compile alone.
func groupMember(g *queryGroup, sq *sitter.Query, text string, first int, s scannedQuery) (*query, bool) {
	q := &query{text: text, group: g, first: first, captures: s.captures}
	own := map[string]bool{}
	for p := first; p < first+s.patterns; p++ {
		if q.addPattern(sq, uint32(p)) != nil {
			return nil, false
		}
		for c := uint32(0); c < sq.CaptureCount(); c++ {
			if _, added := g.kinds[c]; added {
				continue
			}
			if sq.CaptureQuantifierForId(uint32(p), c) != sitter.QuantifierZero {
				own[g.ids[c]] = true
			}
		}
	}
	if len(own) != len(s.captures) {
		return nil, false
	}
	for _, c := range s.captures {
		if !own[c] {
			return nil, false
		}
	}
	for _, list := range q.preds {
		for _, p := range list {
			if !own[p.capture] || p.other != "" && !own[p.other] {
				return nil, false
			}
		}
	}
	q.setAnchors()
	return q, true
}

// groupSize is the length of a group's text, which its compile time
// follows.
func groupSize(texts []string) int {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return n
}
