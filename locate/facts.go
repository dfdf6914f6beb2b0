package locate

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/keyfindings/keyfindings/findings"
)

// compiledFact is a FactSpec with its sub-query compiled.
type compiledFact struct {
	spec   findings.FactSpec
	query  *query
	fields []*compiledFact
}

// compileFact compiles spec; available lists the captures of the enclosing
// query, which In and Capture may name.
func compileFact(spec findings.FactSpec, available *query) (*compiledFact, error) {
	cf := &compiledFact{spec: spec}
	if spec.In != "" && !available.hasCapture(spec.In) {
		return nil, fmt.Errorf("fact %q: in: unknown capture @%s", spec.Name, spec.In)
	}
	scope := available
	if spec.Query != "" {
		q, err := compileQuery(spec.Query)
		if err != nil {
			return nil, fmt.Errorf("fact %q: %w", spec.Name, err)
		}
		cf.query = q
		scope = q
		if spec.Capture == "" && len(spec.Fields) == 0 {
			var public []string
			for _, c := range q.captures {
				if !strings.HasPrefix(c, "_") {
					public = append(public, c)
				}
			}
			if len(public) != 1 {
				return nil, fmt.Errorf("fact %q: its query has %d public captures; name one with capture:", spec.Name, len(public))
			}
			cf.spec.Capture = public[0]
		}
	}
	if cf.spec.Capture != "" && !scope.hasCapture(cf.spec.Capture) {
		return nil, fmt.Errorf("fact %q: unknown capture @%s", spec.Name, cf.spec.Capture)
	}
	if spec.Root != "" && !cf.query.hasCapture(spec.Root) {
		return nil, fmt.Errorf("fact %q: root: its query has no capture @%s", spec.Name, spec.Root)
	}
	for _, sub := range slices.Sorted(maps.Keys(spec.Where)) {
		if !cf.query.hasCapture(sub) {
			return nil, fmt.Errorf("fact %q: where: its query has no capture @%s", spec.Name, sub)
		}
		if outer := spec.Where[sub]; !available.hasCapture(outer) {
			return nil, fmt.Errorf("fact %q: where: @%s is not a capture of the enclosing query", spec.Name, outer)
		}
	}
	for _, f := range spec.Fields {
		sub, err := compileFact(f, scope)
		if err != nil {
			return nil, fmt.Errorf("fact %q: %w", spec.Name, err)
		}
		cf.fields = append(cf.fields, sub)
	}
	return cf, nil
}

// factScope is where a fact is evaluated: a match's captures and the
// span's byte range.
type factScope struct {
	file     *parsedFile
	captures map[string][]*sitter.Node
	span     byteRange
	warn     func(string)
}

// eval computes the fact's value in scope; ok is false when it has none.
func (cf *compiledFact) eval(s factScope) (any, bool, error) {
	var matches []match
	if cf.query != nil {
		var err error
		matches, err = cf.subMatches(s)
		if err != nil {
			return nil, false, err
		}
	} else {
		matches = []match{{captures: s.captures}}
	}
	if len(cf.fields) > 0 {
		rows := []any{}
		for _, m := range matches {
			row := map[string]any{}
			for _, f := range cf.fields {
				v, ok, err := f.eval(factScope{file: s.file, captures: m.captures, span: s.span, warn: s.warn})
				if err != nil {
					return nil, false, err
				}
				if ok {
					row[f.spec.Name] = v
				}
			}
			rows = append(rows, row)
		}
		if cf.query == nil {
			return rows[0], true, nil
		}
		if len(rows) == 0 && !cf.spec.List {
			return nil, false, nil
		}
		return rows, true, nil
	}
	var nodes []*sitter.Node
	for _, m := range matches {
		nodes = append(nodes, m.captures[cf.spec.Capture]...)
	}
	nodes = sortNodes(nodes)
	var values []any
	seen := map[string]bool{}
	for _, n := range nodes {
		for _, v := range convert(s.file, n, cf.spec.Value, s.warn) {
			if cf.spec.Unique {
				k := fmt.Sprint(v)
				if seen[k] {
					continue
				}
				seen[k] = true
			}
			values = append(values, v)
		}
	}
	return shape(values, cf.spec.List)
}

// subMatches runs the fact's query where the spec says (the span, the
// whole file, or each node of In), keeps the matches that satisfy Root and
// Where, and orders them by their first public capture.
func (cf *compiledFact) subMatches(s factScope) ([]match, error) {
	var matches []match
	switch {
	case cf.spec.Scope == "file" || cf.spec.In == "":
		var within *byteRange
		if cf.spec.Scope != "file" {
			within = &s.span
		}
		froms, limited := cf.joinStarts(s, within)
		if !limited {
			ms, err := cf.query.run(s.file, s.file.root, within)
			if err != nil {
				return nil, err
			}
			matches = ms
			break
		}
		counted.joinStarts.Add(1)
		counted.joinRuns.Add(int64(len(froms)))
		for i := range froms {
			ms, err := cf.query.runFrom(s.file, s.file.root, within, &froms[i])
			if err != nil {
				return nil, err
			}
			matches = append(matches, ms...)
		}
	default:
		seen := map[string]bool{}
		for _, n := range s.captures[cf.spec.In] {
			ms, err := cf.query.run(s.file, n, nil)
			if err != nil {
				return nil, err
			}
			for _, m := range ms {
				if cf.spec.Root != "" && !capturesNode(m, cf.spec.Root, n) {
					continue
				}
				k := matchKey(m)
				if !seen[k] {
					seen[k] = true
					matches = append(matches, m)
				}
			}
		}
	}
	if len(cf.spec.Where) > 0 {
		kept := matches[:0]
		for _, m := range matches {
			if cf.joins(m, s) {
				kept = append(kept, m)
			}
		}
		matches = kept
	}
	sortMatches(matches)
	return matches, nil
}

// maxJoinStarts bounds the runs joinStarts asks for; a text that occurs
// more often is joined after one run over the whole scope.
const maxJoinStarts = 16

// joinStarts tells where the matches that Where keeps can lie, from the
// text the enclosing captures give each Where pair: every such match
// holds a node whose text is that text, so it starts around one of the
// text's occurrences (groupMatches). It returns the occurrences of the
// pair's text that has the fewest in the file (inside within when set),
// and true; none when some pair's enclosing capture is empty, or its
// text does not occur. It returns false when a run over the whole scope
// is asked for: a fact that makes rows of fields (their order follows the
// matches'), no pair with a text, too many occurrences, or the anchored
// runs switched off (cachesOff). A match found around two occurrences is
// found twice; the fact's values do not change, as they are its nodes,
// ordered by position with duplicates dropped (eval, sortNodes).
func (cf *compiledFact) joinStarts(s factScope, within *byteRange) ([]byteRange, bool) {
	if len(cf.spec.Where) == 0 || len(cf.fields) > 0 || cachesOff.anchoredRuns {
		return nil, false
	}
	var best []byteRange
	found := false
	for _, sub := range slices.Sorted(maps.Keys(cf.spec.Where)) {
		outer := s.captures[cf.spec.Where[sub]]
		if len(outer) == 0 {
			return nil, true
		}
		text := []byte(outer[0].Content(s.file.Data))
		if len(text) == 0 {
			continue
		}
		lo, hi := 0, len(s.file.Data)
		if within != nil {
			lo, hi = within.start, within.end
		}
		var at []byteRange
		for i := lo; i < hi; {
			j := bytes.Index(s.file.Data[i:hi], text)
			if j < 0 {
				break
			}
			at = append(at, byteRange{i + j, i + j + len(text)})
			if len(at) > maxJoinStarts {
				break
			}
			i += j + 1
		}
		if !found || len(at) < len(best) {
			best, found = at, true
		}
	}
	if !found || len(best) > maxJoinStarts {
		return nil, false
	}
	return best, true
}

// joins reports whether every Where pair has equal source text in the
// sub-match and the enclosing captures.
func (cf *compiledFact) joins(m match, s factScope) bool {
	for sub, outer := range cf.spec.Where {
		a, b := m.captures[sub], s.captures[outer]
		if len(a) == 0 || len(b) == 0 {
			return false
		}
		want := b[0].Content(s.file.Data)
		for _, n := range a {
			if n.Content(s.file.Data) != want {
				return false
			}
		}
	}
	return true
}

// capturesNode reports whether m's capture name holds the node n itself.
func capturesNode(m match, name string, n *sitter.Node) bool {
	for _, c := range m.captures[name] {
		if sameNode(c, n) {
			return true
		}
	}
	return false
}

func sameNode(a, b *sitter.Node) bool {
	return a.StartByte() == b.StartByte() && a.EndByte() == b.EndByte() && a.Symbol() == b.Symbol()
}

// sortMatches orders matches by the earliest node among their public
// captures (all captures when none is public). A query cursor reports
// matches as they complete, which is not always source order; rows of a
// fact must be.
func sortMatches(ms []match) {
	first := func(m match) uint32 {
		var lo, any uint32 = math.MaxUint32, math.MaxUint32
		for name, ns := range m.captures {
			for _, n := range ns {
				if n.StartByte() < any {
					any = n.StartByte()
				}
				if !strings.HasPrefix(name, "_") && n.StartByte() < lo {
					lo = n.StartByte()
				}
			}
		}
		if lo == math.MaxUint32 {
			return any
		}
		return lo
	}
	sort.SliceStable(ms, func(i, j int) bool { return first(ms[i]) < first(ms[j]) })
}

// shape turns values into a fact: nothing, one value, or a list.
func shape(values []any, list bool) (any, bool, error) {
	switch {
	case len(values) == 0 && !list:
		return nil, false, nil
	case len(values) == 1 && !list:
		return values[0], true, nil
	case values == nil:
		return []any{}, true, nil
	}
	return values, true, nil
}

// matchKey identifies a match by the nodes it captured, so the same match
// found from two scope nodes counts once.
func matchKey(m match) string {
	var parts []string
	for name, ns := range m.captures {
		for _, n := range ns {
			parts = append(parts, fmt.Sprintf("%s:%d:%d", name, n.StartByte(), n.EndByte()))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// sortNodes orders nodes by position and drops duplicates.
func sortNodes(nodes []*sitter.Node) []*sitter.Node {
	sort.SliceStable(nodes, func(i, j int) bool {
		if nodes[i].StartByte() != nodes[j].StartByte() {
			return nodes[i].StartByte() < nodes[j].StartByte()
		}
		return nodes[i].EndByte() > nodes[j].EndByte()
	})
	out := nodes[:0]
	for i, n := range nodes {
		if i > 0 && n.StartByte() == nodes[i-1].StartByte() && n.EndByte() == nodes[i-1].EndByte() && n.Type() == nodes[i-1].Type() {
			continue
		}
		out = append(out, n)
	}
	return out
}

// convert turns a node into fact values under a value kind.
func convert(f *parsedFile, n *sitter.Node, kind string, warn func(string)) []any {
	text := n.Content(f.Data)
	switch kind {
	case "text":
		return []any{text}
	case "lines":
		var out []any
		for _, l := range strings.Split(text, "\n") {
			out = append(out, strings.TrimRight(l, "\r"))
		}
		return out
	case "number":
		if v, ok := evalNumber(n, f.Data); ok {
			return []any{v}
		}
		warn(fmt.Sprintf("line %d: %q is not constant arithmetic; kept as text", n.StartPoint().Row+1, text))
		return []any{text}
	case "guards":
		return []any{guards(n, f.Data)}
	case "expr":
		return []any{exprTree(n, f.Data)}
	case "import":
		if spec, ok := f.importMap()[text]; ok {
			return []any{spec}
		}
		warn(fmt.Sprintf("line %d: %s is not imported in %s; kept as text", n.StartPoint().Row+1, text, f.Path))
		return []any{text}
	}
	return []any{literal(n, f.Data)}
}

// guards lists, outermost first, the conditions under which control
// reaches n inside its function: the condition of each enclosing if
// statement or conditional expression, as source text, wrapped as
// "!(…)" when n sits in the else branch. It does not see earlier
// statements that return first; the order of rules tells that.
func guards(n *sitter.Node, src []byte) []any {
	var out []any
	child := n
	for p := n.Parent(); p != nil; child, p = p, p.Parent() {
		if isFunction(p.Type()) {
			break
		}
		var cond, yes, no *sitter.Node
		switch p.Type() {
		case "if_statement", "ternary_expression":
			cond, yes, no = p.ChildByFieldName("condition"), p.ChildByFieldName("consequence"), p.ChildByFieldName("alternative")
		default:
			continue
		}
		if cond == nil || sameNode(cond, child) {
			continue
		}
		text := conditionText(cond, src)
		switch {
		case yes != nil && sameNode(yes, child):
			out = append(out, text)
		case no != nil && sameNode(no, child):
			out = append(out, "!("+text+")")
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	if out == nil {
		out = []any{}
	}
	return out
}

// conditionText is a condition's source without the parentheses an if
// statement requires around it.
func conditionText(n *sitter.Node, src []byte) string {
	if n.Type() == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	return n.Content(src)
}

func isFunction(t string) bool {
	switch t {
	case "function_declaration", "function_expression", "function", "arrow_function",
		"generator_function", "generator_function_declaration", "method_definition":
		return true
	}
	return false
}

// literal gives strings unquoted, numbers as numbers, anything else as its
// source text.
func literal(n *sitter.Node, src []byte) any {
	text := n.Content(src)
	switch n.Type() {
	case "string", "template_string":
		return unquote(text)
	case "number":
		if v, ok := parseNumber(text); ok {
			return v
		}
	case "true":
		return true
	case "false":
		return false
	}
	return text
}

// unquote strips a string literal's quotes and decodes simple escapes; a
// template string keeps its ${…} parts as written.
func unquote(s string) string {
	if len(s) < 2 {
		return s
	}
	q := s[0]
	if (q != '"' && q != '\'' && q != '`') || s[len(s)-1] != q {
		return s
	}
	body := s[1 : len(s)-1]
	if !strings.Contains(body, "\\") {
		return body
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 == len(body) {
			b.WriteByte(c)
			continue
		}
		i++
		switch body[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case '\n':
			// line continuation
		default:
			b.WriteByte(body[i])
		}
	}
	return b.String()
}

// parseNumber reads a JavaScript numeric literal (separators, hex, octal,
// binary, exponents).
func parseNumber(s string) (float64, bool) {
	s = strings.ReplaceAll(strings.TrimSuffix(s, "n"), "_", "")
	if len(s) > 2 && s[0] == '0' {
		base := 0
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			v, err := strconv.ParseInt(s[2:], base, 64)
			return float64(v), err == nil
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && !math.IsInf(v, 0) && !math.IsNaN(v)
}

// evalNumber evaluates constant arithmetic: literals, parentheses, unary
// minus and + - * / % ** between them.
func evalNumber(n *sitter.Node, src []byte) (float64, bool) {
	switch n.Type() {
	case "number":
		return parseNumber(n.Content(src))
	case "parenthesized_expression":
		if n.NamedChildCount() != 1 {
			return 0, false
		}
		return evalNumber(n.NamedChild(0), src)
	case "unary_expression":
		op := n.ChildByFieldName("operator")
		arg := n.ChildByFieldName("argument")
		if op == nil || arg == nil {
			return 0, false
		}
		v, ok := evalNumber(arg, src)
		switch op.Type() {
		case "-":
			return -v, ok
		case "+":
			return v, ok
		}
		return 0, false
	case "binary_expression":
		l, r, op := n.ChildByFieldName("left"), n.ChildByFieldName("right"), n.ChildByFieldName("operator")
		if l == nil || r == nil || op == nil {
			return 0, false
		}
		a, ok1 := evalNumber(l, src)
		b, ok2 := evalNumber(r, src)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch op.Type() {
		case "+":
			return a + b, true
		case "-":
			return a - b, true
		case "*":
			return a * b, true
		case "/":
			if b == 0 {
				return 0, false
			}
			return a / b, true
		case "%":
			if b == 0 {
				return 0, false
			}
			return math.Mod(a, b), true
		case "**":
			return math.Pow(a, b), true
		}
	}
	return 0, false
}
