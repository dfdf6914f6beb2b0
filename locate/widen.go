package locate

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
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
// The matches kept are the text's own (TestWidenedQueriesMatchAsWritten
// compares both forms on the catalog's fixtures); the root keeps its type,
// since a wildcard root would be tried at every node of a file.
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
	grouping    stepKind = iota // "[...]", or "(" around sibling patterns
	nodeStep                    // "(type ...)"
	predicateOf                 // "(#name? ...)"
)

// openStep is a parenthesis or bracket widen has not yet seen closed.
type openStep struct {
	kind           stepKind
	typeAt, typeTo int  // a node step's type name, text[typeAt:typeTo]
	children       bool // a node step holds a child step
	belowRoot      bool // a node step lies inside another
}

// textEdit replaces text[at:at+drop] with insert.
type textEdit struct {
	at, drop int
	insert   string
}

// widen returns text with each step that has children and is not a
// pattern's root made a wildcard, and the node type each capture it added
// must have. ok is false when text does not scan (an unclosed
// parenthesis or string); it is then returned as written, as it is when
// it already names a capture with widenPrefix.
func widen(text string) (string, map[string]string, bool) {
	var open []openStep
	var edits []textEdit
	kinds := map[string]string{}
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
	child := func() {
		if n := innerNode(); n != nil {
			n.children = true
		}
	}
	// An opening parenthesis is a node step, a grouping or a predicate:
	// the token after it tells.
	parenAt := -1
	taken, stray := false, false
	ok := queryTokens(text, func(t queryToken) {
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
			child() // an anonymous node; in a predicate, a value
		case tokOpen:
			if text[t.at] == '(' {
				parenAt = t.at
				return
			}
			child()
			open = append(open, openStep{kind: grouping})
		case tokClose:
			if len(open) == 0 {
				stray = true
				return
			}
			s := open[len(open)-1]
			open = open[:len(open)-1]
			if text[t.at] == ')' && s.kind == nodeStep && s.children && s.belowRoot {
				// The capture goes after the quantifier, if any.
				at := t.end
				for at < len(text) && strings.IndexByte("*+?", text[at]) >= 0 {
					at++
				}
				name := widenPrefix + strconv.Itoa(len(kinds))
				kinds[name] = text[s.typeAt:s.typeTo]
				edits = append(edits,
					textEdit{at: s.typeAt, drop: s.typeTo - s.typeAt, insert: "_"},
					textEdit{at: at, insert: " @" + name})
			}
		case tokCapture:
			if strings.HasPrefix(text[t.at+1:t.end], widenPrefix) {
				taken = true
			}
		case tokName:
			if text[t.at:t.end] == "_" {
				child() // a bare wildcard: any node
			}
		}
	})
	if !ok || stray || parenAt >= 0 || len(open) != 0 {
		return text, nil, false
	}
	if taken || len(edits) == 0 {
		return text, nil, true
	}
	slices.SortStableFunc(edits, func(a, b textEdit) int { return cmp.Compare(a.at, b.at) })
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(text[last:e.at])
		b.WriteString(e.insert)
		last = e.at + e.drop
	}
	b.WriteString(text[last:])
	return b.String(), kinds, true
}
