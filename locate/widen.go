package locate

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// When tree-sitter compiles a query it analyses each step that has
// children against the grammar's parse table, to learn which children
// are certain to follow. For an expression type of the TypeScript grammar
// (call_expression, member_expression, ...) that takes 2 to 3 ms a step,
// for every such step of every pattern: most of what compiling the
// catalog's queries cost once the fixed 2.5 ms a compile is paid. A
// wildcard step is not analysed. So a query is compiled widened: each
// step that has children and lies below its pattern's root becomes a
// wildcard with a capture of its own, and a match is kept only where
// every such capture is a node of the type the text names (groupMatches).
// Where the wider step could change which matches tree-sitter keeps (see
// widen) the step stays as written. The matches kept are the text's own
// (TestWidenKeepsMatches on queries made to tell, and
// TestWidenedQueriesMatchAsWritten on the catalog's fixtures); the root
// keeps its type, since a wildcard root would be tried at every node of
// a file.
//
// A step that is not analysed is not checked either: tree-sitter refuses
// a child that can never appear under its parent only where it analyses
// the parent. So a text is compiled widened only once it compiled as
// written: a built-in catalog's text (TestWidenedQueriesMatchAsWritten
// compiles each) or a text whose cache entry a compile wrote
// (queryGroup.widened).

// widenPrefix starts the names of the captures widen adds. A text that
// uses such a name is compiled as written.
const widenPrefix = "_kf_w"

// stepKind tells what an opening parenthesis or bracket of a query starts.
type stepKind int

const (
	grouping    stepKind = iota // "(" around sibling patterns
	alternation                 // "[...]"
	nodeStep                    // "(type ...)"
	predicateOf                 // "(#name? ...)"
)

// openStep is a parenthesis or bracket widen has not yet seen closed.
type openStep struct {
	kind           stepKind
	typeAt, typeTo int  // a node step's type name, text[typeAt:typeTo]
	children       bool // a node step holds a child step
	belowRoot      bool // a node step lies inside another
	// held: a capture is on an element inside that every match of this
	// one has (neither quantified nor an alternative).
	held bool
	// widens lists the steps inside that widen may make wildcards, by
	// index in widenings: pending until this one is known not to be
	// quantified or an alternative.
	widens []int
}

// element is the last element widen read whole (a closed step, a string,
// a wildcard) until the quantifier and captures after it are read.
type element struct {
	step       *openStep // nil for a string or a wildcard
	closeEnd   int       // where a step's closing parenthesis ends
	quantified bool
	captured   bool
}

// textEdit replaces text[at:at+drop] with insert.
type textEdit struct {
	at, drop int
	insert   string
}

// widening is a step widen makes a wildcard, unless dropped.
type widening struct {
	typeAt, typeTo, captureAt int
	dropped                   bool
}

// widen returns text with each step that has children and is not a
// pattern's root made a wildcard, and the node type each capture it added
// must have. ok is false when text does not scan (an unclosed
// parenthesis or string); it is then returned as written, as it is when
// it already names a capture with widenPrefix.
//
// A wildcard matches more nodes than the step did, and the matches
// through a node of another type are dropped only after tree-sitter ran
// the query; they must not change which other matches it returns. So a
// step stays as written where they could:
//   - when it is quantified or an alternative, or lies inside one: a
//     state through a wrong node holds one capture more than the state
//     that skipped the step, and tree-sitter drops the state whose
//     captures another's include (the longest match);
//   - when no capture on it or on an element every match of it has pins
//     its node: two matches through different nodes, one as written,
//     would differ only in the added capture;
//   - when regular does not accept its type (a supertype such as
//     "expression": a node's type is never one).
func widen(text string, regular func(string) bool) (string, map[string]string, bool) {
	var open []openStep
	var widenings []widening
	var last *element
	// innerNode is the innermost open node step, through groupings; nil
	// inside a predicate or outside every node.
	innerNode := func() *openStep {
		for i := len(open) - 1; i >= 0; i-- {
			switch open[i].kind {
			case nodeStep:
				return &open[i]
			case predicateOf:
				return nil
			}
		}
		return nil
	}
	inPredicate := func() bool {
		for i := len(open) - 1; i >= 0; i-- {
			if open[i].kind == predicateOf {
				return true
			}
		}
		return false
	}
	child := func() {
		if n := innerNode(); n != nil {
			n.children = true
		}
	}
	// settle adds the last element to its parent once what follows it is
	// read.
	settle := func() {
		e := last
		last = nil
		required := !e.quantified
		held := e.captured && required
		if s := e.step; s != nil {
			if s.kind == alternation {
				required = false
			}
			if required && s.kind == nodeStep && s.children && s.belowRoot &&
				(s.held || e.captured) && regular(text[s.typeAt:s.typeTo]) {
				s.widens = append(s.widens, len(widenings))
				widenings = append(widenings, widening{typeAt: s.typeAt, typeTo: s.typeTo, captureAt: e.closeEnd})
			}
			if !required {
				for _, i := range s.widens {
					widenings[i].dropped = true
				}
				s.widens = nil
			}
			held = held || required && s.held
		}
		if len(open) > 0 {
			p := &open[len(open)-1]
			p.held = p.held || held
			if e.step != nil {
				p.widens = append(p.widens, e.step.widens...)
			}
		}
	}
	// An opening parenthesis is a node step, a grouping or a predicate:
	// the token after it tells.
	parenAt := -1
	taken, stray := false, false
	ok := queryTokens(text, func(t queryToken) {
		if t.kind == tokCapture && strings.HasPrefix(text[t.at+1:t.end], widenPrefix) {
			taken = true
		}
		if last != nil {
			switch {
			case t.kind == tokOther && strings.IndexByte("*+?", text[t.at]) >= 0:
				last.quantified = true
				return
			case t.kind == tokCapture:
				last.captured = true
				return
			}
			settle()
		}
		if parenAt >= 0 {
			parenAt = -1
			switch name := text[t.at:t.end]; {
			case t.kind == tokPredicate:
				open = append(open, openStep{kind: predicateOf})
				return
			case t.kind == tokName && name[0]|0x20 >= 'a' && name[0]|0x20 <= 'z':
				child()
				open = append(open, openStep{kind: nodeStep, typeAt: t.at, typeTo: t.end, belowRoot: innerNode() != nil})
				return
			default:
				child()
				open = append(open, openStep{kind: grouping})
			}
		}
		switch t.kind {
		case tokString:
			if !inPredicate() {
				child() // an anonymous node
				last = &element{}
			}
		case tokOpen:
			if text[t.at] == '(' {
				parenAt = t.at
				return
			}
			child()
			open = append(open, openStep{kind: alternation})
		case tokClose:
			if len(open) == 0 {
				stray = true
				return
			}
			s := open[len(open)-1]
			open = open[:len(open)-1]
			if s.kind != predicateOf {
				last = &element{step: &s, closeEnd: t.end}
			}
		case tokName:
			if text[t.at:t.end] == "_" && !inPredicate() {
				child() // a bare wildcard: any node
				last = &element{}
			}
		}
	})
	if last != nil {
		settle()
	}
	if !ok || stray || parenAt >= 0 || len(open) != 0 {
		return text, nil, false
	}
	var edits []textEdit
	kinds := map[string]string{}
	for _, w := range widenings {
		if w.dropped {
			continue
		}
		name := widenPrefix + strconv.Itoa(len(kinds))
		kinds[name] = text[w.typeAt:w.typeTo]
		edits = append(edits,
			textEdit{at: w.typeAt, drop: w.typeTo - w.typeAt, insert: "_"},
			textEdit{at: w.captureAt, insert: " @" + name})
	}
	if taken || len(edits) == 0 {
		return text, nil, true
	}
	slices.SortStableFunc(edits, func(a, b textEdit) int { return cmp.Compare(a.at, b.at) })
	var b strings.Builder
	done := 0
	for _, e := range edits {
		b.WriteString(text[done:e.at])
		b.WriteString(e.insert)
		done = e.at + e.drop
	}
	b.WriteString(text[done:])
	return b.String(), kinds, true
}

// regularTypes holds, by grammar, the node types regularOf accepts.
var regularTypes sync.Map // *sitter.Language → map[string]bool

// regularOf returns whether a node of lang's trees can have the type a
// query step names: a named, visible symbol's name that no hidden symbol
// (a supertype) shares.
func regularOf(lang *sitter.Language) func(string) bool {
	if m, ok := regularTypes.Load(lang); ok {
		return func(name string) bool { return m.(map[string]bool)[name] }
	}
	types := map[string]bool{}
	hidden := map[string]bool{}
	for s := range lang.SymbolCount() {
		switch name := lang.SymbolName(sitter.Symbol(s)); lang.SymbolType(sitter.Symbol(s)) {
		case sitter.SymbolTypeRegular:
			types[name] = true
		case sitter.SymbolTypeAuxiliary:
			hidden[name] = true
		}
	}
	for name := range hidden {
		delete(types, name)
	}
	regularTypes.Store(lang, types)
	return func(name string) bool { return types[name] }
}
