package locate

import "slices"

// Query texts are read without compiling them in two places: to join texts
// into one group (scanQuery: each text's patterns and captures) and to
// compile a known text widened (widen). Both read the text as tree-sitter
// does, through queryTokens.

// tokenKind is the kind of one token of a query text.
type tokenKind int

const (
	tokOpen      tokenKind = iota // "(" or "["
	tokClose                      // ")" or "]"
	tokString                     // a quoted string, escapes included
	tokCapture                    // "@name"
	tokPredicate                  // "#name?" (after an opening parenthesis)
	tokNegated                    // "!field"
	tokName                       // a node type, a field name, "_"
	tokOther                      // one byte: an anchor, a quantifier, ":"
)

// queryToken is one token: its kind and where it lies in the text.
// Whitespace and comments are not tokens.
type queryToken struct {
	kind    tokenKind
	at, end int
}

// queryTokens calls fn for each token of text in order. It returns false
// when a string is not closed.
func queryTokens(text string, fn func(queryToken)) bool {
	ident := func(i int) int {
		for i < len(text) && isQueryIdent(text[i]) {
			i++
		}
		return i
	}
	for i := 0; i < len(text); {
		c := text[i]
		t := queryToken{at: i, end: i + 1}
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
			continue
		case c == ';':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		case c == '"':
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(text) {
				return false
			}
			t.kind, t.end = tokString, j+1
		case c == '(' || c == '[':
			t.kind = tokOpen
		case c == ')' || c == ']':
			t.kind = tokClose
		case c == '@':
			t.kind, t.end = tokCapture, ident(i+1)
		case c == '#':
			t.kind, t.end = tokPredicate, ident(i+1)
		case c == '!':
			t.kind, t.end = tokNegated, ident(i+1)
		case c == '_' || isQueryIdent(c) && c != '.' && c != '-' && c != '?':
			t.kind, t.end = tokName, ident(i)
		default:
			t.kind = tokOther
		}
		fn(t)
		i = t.end
	}
	return true
}

// isQueryIdent reports whether b may be part of a name in a query, as
// tree-sitter scans names (non-ASCII bytes included, as parts of letters).
func isQueryIdent(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' ||
		b == '_' || b == '-' || b == '.' || b == '?' || b == '!' || b >= 0x80
}

// scannedQuery is what scanQuery reads from a query text.
type scannedQuery struct {
	// patterns counts the top-level patterns.
	patterns int
	// captures are the capture names in order of first appearance, the
	// order in which tree-sitter numbers them.
	captures []string
}

// scanQuery reads a query text's top-level patterns and capture names
// without compiling it. ok is false when the text does not end at the top
// level (an unclosed parenthesis or string, a stray closing one), so that
// joined to another text it would not keep to its own patterns.
func scanQuery(text string) (scannedQuery, bool) {
	var s scannedQuery
	seen := map[string]bool{}
	depth := 0
	field := false // a top-level field name was read: its pattern follows
	stray := false
	start := func() {
		if depth == 0 && !field {
			s.patterns++
		}
		field = false
	}
	ok := queryTokens(text, func(t queryToken) {
		switch t.kind {
		case tokString:
			start()
		case tokOpen:
			start()
			depth++
		case tokClose:
			if depth--; depth < 0 {
				stray = true
			}
		case tokCapture:
			if name := text[t.at+1 : t.end]; !seen[name] {
				seen[name] = true
				s.captures = append(s.captures, name)
			}
		case tokName:
			if depth == 0 {
				// A wildcard, or a field name with its pattern after.
				isField := text[t.at:t.end] != "_"
				start()
				field = isField
			}
		}
	})
	return s, ok && !stray && depth == 0 && !field
}

// queryNode is a node of a query pattern as requiredLiterals reads it: a
// parenthesized node or group, an alternation, a predicate, or a bare
// node ("_", a quoted anonymous node).
type queryNode struct {
	alt, pred, optional bool
	captures            []string
	kids                []*queryNode
}

// requiredLiterals reads the literals every match of a query text
// contains, from the text's shape: a capture's #eq? literals (lits, per
// top-level pattern: capture name to literals) are required when its node
// is, that is not under a ? or * quantifier, and, inside an alternation,
// only when every alternative requires them. Over several top-level
// patterns, those all of them require. ok is false when the text's
// patterns are not the len(lits) it reads.
func requiredLiterals(text string, lits []map[string][]string) (req []string, ok bool) {
	root := &queryNode{}
	stack := []*queryNode{root}
	var last *queryNode
	opened := false // the token before was an opening bracket
	add := func(n *queryNode) {
		top := stack[len(stack)-1]
		top.kids = append(top.kids, n)
	}
	closed := queryTokens(text, func(t queryToken) {
		top := stack[len(stack)-1]
		justOpened := opened
		opened = false
		switch t.kind {
		case tokOpen:
			n := &queryNode{alt: text[t.at] == '['}
			add(n)
			stack = append(stack, n)
			last, opened = nil, true
		case tokClose:
			if len(stack) > 1 {
				last = stack[len(stack)-1]
				stack = stack[:len(stack)-1]
			}
		case tokPredicate:
			if justOpened {
				top.pred = true
			}
		case tokString:
			if !top.pred {
				last = &queryNode{}
				add(last)
			}
		case tokName:
			last = nil
			if text[t.at:t.end] == "_" && !justOpened {
				last = &queryNode{}
				add(last)
			}
		case tokCapture:
			if !top.pred && last != nil {
				last.captures = append(last.captures, text[t.at+1:t.end])
			}
		case tokOther:
			if c := text[t.at]; (c == '?' || c == '*') && last != nil {
				last.optional = true
			}
		}
	})
	if !closed || len(stack) != 1 || len(root.kids) != len(lits) {
		return nil, false
	}
	for i, p := range root.kids {
		r := p.required(lits[i])
		if p.optional {
			r = nil
		}
		if i == 0 {
			req = r
			continue
		}
		req = slices.DeleteFunc(req, func(s string) bool { return !slices.Contains(r, s) })
	}
	return req, true
}

// required is what every match of n contains, with lits the literals of
// its pattern's captures.
func (n *queryNode) required(lits map[string][]string) []string {
	var out []string
	addAll := func(ss []string) {
		for _, s := range ss {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	for _, c := range n.captures {
		addAll(lits[c])
	}
	if n.alt {
		var common []string
		first := true
		for _, k := range n.kids {
			if k.pred {
				continue
			}
			var r []string
			if !k.optional {
				r = k.required(lits)
			}
			if first {
				common, first = r, false
				continue
			}
			common = slices.DeleteFunc(common, func(s string) bool { return !slices.Contains(r, s) })
		}
		addAll(common)
		return out
	}
	for _, k := range n.kids {
		if !k.pred && !k.optional {
			addAll(k.required(lits))
		}
	}
	return out
}
