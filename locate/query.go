package locate

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// Grammars, loaded once.
var (
	langTS  = typescript.GetLanguage()
	langTSX = tsx.GetLanguage()
)

// languageFor returns the grammar for a path.
func languageFor(path string) *sitter.Language {
	if strings.HasSuffix(path, ".tsx") {
		return langTSX
	}
	return langTS
}

// predicate is one compiled #eq?/#match?/#any-of? test.
type predicate struct {
	op      string // eq, match, any-of
	negate  bool
	capture string
	other   string // capture compared with, for #eq? @a @b
	values  []string
	re      *regexp.Regexp
}

// query is one query text of the catalog, with its predicates parsed and
// checked. Its patterns are compiled as part of a group (see group.go):
// several texts compiled as one tree-sitter query, in which this text's
// patterns are first..first+len(preds)-1.
type query struct {
	text  string
	group *queryGroup
	first int
	// captures lists the text's capture names, in the order tree-sitter
	// numbers them when the text is compiled alone.
	captures []string
	// preds holds predicates per pattern of the text.
	preds [][]predicate
	// anchors are the literal strings every match of the text contains
	// (see setAnchors): a blob lacking one of them cannot match.
	anchors []string
}

// compiledQueries holds every query this process compiled, by its text.
// tree-sitter spends milliseconds analysing the grammar for each query it
// compiles, and a compiled query is never changed after it is stored
// (its group adds its TSX form under a lock), so definitions, facts and
// Compile calls that share a text share one compilation.
var compiledQueries sync.Map // string → *queryOnce

type queryOnce struct {
	once sync.Once
	q    *query
	err  error
}

// compileQuery returns text compiled for TypeScript (and lazily TSX), with
// its predicates checked, compiling it alone on first use unless a group
// compiled it (compileGroup).
func compileQuery(text string) (*query, error) {
	v, _ := compiledQueries.LoadOrStore(text, &queryOnce{})
	e := v.(*queryOnce)
	e.once.Do(func() { e.q, e.err = compileQueryText(text) })
	return e.q, e.err
}

// storeQuery makes compileQuery answer q for its text, unless the text has
// an answer already.
func storeQuery(q *query) {
	e := &queryOnce{}
	e.once.Do(func() { e.q = q })
	compiledQueries.LoadOrStore(q.text, e)
}

// compileQueryText compiles text alone for TypeScript and checks its
// predicates.
func compileQueryText(text string) (*query, error) {
	g := &queryGroup{text: text, compiled: map[*sitter.Language]*sitter.Query{}}
	sq, err := g.forLanguage(langTS)
	if err != nil {
		return nil, fmt.Errorf("query does not compile: %w", err)
	}
	cq := &query{text: text, group: g, captures: g.captures}
	for p := uint32(0); p < sq.PatternCount(); p++ {
		if err := cq.addPattern(sq, p); err != nil {
			return nil, err
		}
	}
	cq.setAnchors()
	g.members = []*query{cq}
	return cq, nil
}

// addPattern parses the predicates of pattern p of the compiled group as
// the text's next pattern.
func (q *query) addPattern(sq *sitter.Query, p uint32) error {
	var list []predicate
	for _, steps := range sq.PredicatesForPattern(p) {
		pr, err := parsePredicate(sq, steps)
		if err != nil {
			return err
		}
		list = append(list, pr)
	}
	q.preds = append(q.preds, list)
	return nil
}

// setAnchors sets the text's anchors from its patterns' predicates: the
// #eq? literals every match contains, as the text's shape tells
// (requiredLiterals: alternatives share them, an optional node's are not
// required). A predicate on a capture the match lacks holds (see holds),
// so the literal of any other is no anchor.
func (q *query) setAnchors() {
	lits := make([]map[string][]string, len(q.preds))
	for i, list := range q.preds {
		lits[i] = map[string][]string{}
		for _, p := range list {
			if p.op == "eq" && !p.negate && p.other == "" && len(p.values) == 1 {
				lits[i][p.capture] = append(lits[i][p.capture], p.values[0])
			}
		}
	}
	q.anchors, _ = requiredLiterals(q.text, lits)
}

func parsePredicate(q *sitter.Query, steps []sitter.QueryPredicateStep) (predicate, error) {
	if len(steps) == 0 || steps[0].Type != sitter.QueryPredicateStepTypeString {
		return predicate{}, errors.New("query has a malformed predicate")
	}
	name := q.StringValueForId(steps[0].ValueId)
	var pr predicate
	switch name {
	case "eq?", "not-eq?":
		pr.op, pr.negate = "eq", name == "not-eq?"
	case "match?", "not-match?":
		pr.op, pr.negate = "match", name == "not-match?"
	case "any-of?", "not-any-of?":
		pr.op, pr.negate = "any-of", name == "not-any-of?"
	default:
		return pr, fmt.Errorf("query uses predicate #%s, which keyfindings does not evaluate (use #eq?, #match? or #any-of?)", name)
	}
	args := steps[1:]
	if len(args) > 0 && args[len(args)-1].Type == sitter.QueryPredicateStepTypeDone {
		args = args[:len(args)-1]
	}
	if len(args) < 2 || args[0].Type != sitter.QueryPredicateStepTypeCapture {
		return pr, fmt.Errorf("#%s needs a capture and a value", name)
	}
	pr.capture = q.CaptureNameForId(args[0].ValueId)
	if pr.op == "eq" && args[1].Type == sitter.QueryPredicateStepTypeCapture {
		pr.other = q.CaptureNameForId(args[1].ValueId)
		return pr, nil
	}
	for _, a := range args[1:] {
		if a.Type != sitter.QueryPredicateStepTypeString {
			return pr, fmt.Errorf("#%s takes string values after the capture", name)
		}
		pr.values = append(pr.values, q.StringValueForId(a.ValueId))
	}
	if pr.op != "any-of" && len(pr.values) != 1 {
		return pr, fmt.Errorf("#%s takes exactly one value", name)
	}
	if pr.op == "match" {
		re, err := regexp.Compile(pr.values[0])
		if err != nil {
			return pr, fmt.Errorf("#%s: bad regular expression %q: %v", name, pr.values[0], err)
		}
		pr.re = re
	}
	return pr, nil
}

// hasCapture reports whether the query defines a capture name.
func (q *query) hasCapture(name string) bool {
	for _, c := range q.captures {
		if c == name {
			return true
		}
	}
	return false
}

// match is one query match with its captures by name, in source order.
type match struct {
	captures map[string][]*sitter.Node
}

// run executes the query on node within the file and returns the matches
// whose predicates hold. When within is set, only matches whose captured
// nodes all lie inside [within.start, within.end) are kept. The file runs
// the query's whole group once per node and range (groupMatches); this
// takes the matches of the text's own patterns.
func (q *query) run(f *parsedFile, node *sitter.Node, within *byteRange) ([]match, error) {
	return q.runFrom(f, node, within, nil)
}

// runFrom is run looking only for the matches that start around from
// (groupMatches): with from set, every match that holds a node inside
// from is among those it returns, and maybe others.
func (q *query) runFrom(f *parsedFile, node *sitter.Node, within, from *byteRange) ([]match, error) {
	ms, err := f.groupMatches(q.group, node, within, from)
	if err != nil {
		return nil, err
	}
	var out []match
	for _, m := range ms {
		p := m.pattern - q.first
		if p < 0 || p >= len(q.preds) || !q.holds(p, m.captures, f.Data) {
			continue
		}
		out = append(out, match{captures: m.captures})
	}
	return out, nil
}

type byteRange struct{ start, end int }

// holds evaluates the pattern's predicates. A quantified capture must
// satisfy a predicate with every node it captured.
func (q *query) holds(pattern int, caps map[string][]*sitter.Node, src []byte) bool {
	if pattern >= len(q.preds) {
		return true
	}
	for _, p := range q.preds[pattern] {
		nodes := caps[p.capture]
		for _, n := range nodes {
			text := n.Content(src)
			var ok bool
			switch p.op {
			case "eq":
				if p.other != "" {
					others := caps[p.other]
					ok = len(others) > 0 && others[0].Content(src) == text
				} else {
					ok = text == p.values[0]
				}
			case "match":
				ok = p.re.MatchString(text)
			case "any-of":
				for _, v := range p.values {
					if text == v {
						ok = true
						break
					}
				}
			}
			if ok == p.negate {
				return false
			}
		}
	}
	return true
}
