package extract

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

// query is a tree-sitter query compiled for both grammars, with its
// predicates parsed and checked.
type query struct {
	text     string
	mu       sync.Mutex
	compiled map[*sitter.Language]*sitter.Query
	// captures lists the capture names, by id.
	captures []string
	// preds holds predicates per pattern.
	preds [][]predicate
	// anchors are the literal strings the #eq? predicates demand.
	anchors []string
}

// compiledQueries holds every query this process compiled, by its text.
// tree-sitter spends milliseconds analysing the grammar for each query it
// compiles, and a compiled query is never changed after compileQueryText
// (its TSX form is added under q.mu), so definitions, facts and Compile
// calls that share a text share one compilation.
var compiledQueries sync.Map // string → *queryOnce

type queryOnce struct {
	once sync.Once
	q    *query
	err  error
}

// compileQuery returns text compiled for TypeScript (and lazily TSX), with
// its predicates checked, compiling it on first use.
func compileQuery(text string) (*query, error) {
	v, _ := compiledQueries.LoadOrStore(text, &queryOnce{})
	e := v.(*queryOnce)
	e.once.Do(func() { e.q, e.err = compileQueryText(text) })
	return e.q, e.err
}

// compileQueryText compiles text for TypeScript and checks its predicates.
func compileQueryText(text string) (*query, error) {
	q, err := sitter.NewQuery([]byte(text), langTS)
	if err != nil {
		return nil, fmt.Errorf("query does not compile: %s", oneLine(err.Error()))
	}
	cq := &query{text: text, compiled: map[*sitter.Language]*sitter.Query{langTS: q}}
	for i := uint32(0); i < q.CaptureCount(); i++ {
		cq.captures = append(cq.captures, q.CaptureNameForId(i))
	}
	for p := uint32(0); p < q.PatternCount(); p++ {
		var list []predicate
		for _, steps := range q.PredicatesForPattern(p) {
			pr, err := parsePredicate(q, steps)
			if err != nil {
				return nil, err
			}
			if pr.op == "eq" && !pr.negate && pr.other == "" {
				cq.anchors = append(cq.anchors, pr.values[0])
			}
			list = append(list, pr)
		}
		cq.preds = append(cq.preds, list)
	}
	return cq, nil
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

// forLanguage returns the query compiled for lang.
func (q *query) forLanguage(lang *sitter.Language) (*sitter.Query, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if c, ok := q.compiled[lang]; ok {
		return c, nil
	}
	c, err := sitter.NewQuery([]byte(q.text), lang)
	if err != nil {
		return nil, fmt.Errorf("query does not compile for this grammar: %s", oneLine(err.Error()))
	}
	if err := q.sameShape(c); err != nil {
		return nil, err
	}
	q.compiled[lang] = c
	return c, nil
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
// nodes all lie inside [within.start, within.end) are kept.
func (q *query) run(f *parsedFile, node *sitter.Node, within *byteRange) ([]match, error) {
	sq, err := q.forLanguage(f.lang)
	if err != nil {
		return nil, err
	}
	cur := sitter.NewQueryCursor()
	defer cur.Close()
	if within != nil {
		cur.SetPointRange(f.point(within.start), f.point(within.end))
	}
	cur.Exec(sq, node)
	var out []match
	for {
		m, ok := cur.NextMatch()
		if !ok {
			break
		}
		caps := map[string][]*sitter.Node{}
		inside := true
		for _, c := range m.Captures {
			if within != nil && (int(c.Node.StartByte()) < within.start || int(c.Node.EndByte()) > within.end) {
				inside = false
			}
			name := q.captures[c.Index]
			caps[name] = append(caps[name], c.Node)
		}
		if !inside {
			continue
		}
		if !q.holds(int(m.PatternIndex), caps, f.Data) {
			continue
		}
		out = append(out, match{captures: caps})
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
