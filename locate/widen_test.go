package locate

import (
	"maps"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/source"
)

// TestWiden checks which steps widen makes wildcards: those with children
// below a pattern's root that a capture pins, never a root, a leaf, a
// predicate or a grouping, nothing quantified or an alternative or inside
// one, no supertype.
func TestWiden(t *testing.T) {
	any := func(string) bool { return true }
	for _, c := range []struct {
		in, out string
		kinds   map[string]string
	}{
		{in: `(identifier) @x`, out: `(identifier) @x`},
		{in: `(call_expression function: (identifier) @f)`, out: `(call_expression function: (identifier) @f)`},
		{
			in:    `(call_expression function: (member_expression property: (property_identifier) @p) arguments: (arguments . (string) @s))`,
			out:   `(call_expression function: (_ property: (property_identifier) @p) @_kf_w0 arguments: (_ . (string) @s) @_kf_w1)`,
			kinds: map[string]string{"_kf_w0": "member_expression", "_kf_w1": "arguments"},
		},
		{
			// Inner steps first; a capture on the step itself pins it.
			in:    `(a (b (c (d) @d)) (e (f)) @e)`,
			out:   `(a (_ (_ (d) @d) @_kf_w0) @_kf_w1 (_ (f)) @_kf_w2 @e)`,
			kinds: map[string]string{"_kf_w0": "c", "_kf_w1": "b", "_kf_w2": "e"},
		},
		{
			// Roots of sibling groups stay; a predicate's strings and
			// parentheses are not steps, nor its captures pins.
			in:    `(a (b (c) @c)) ((d (e) @e) (f)) (g (h (i)) (#eq? @x "(h (i))"))`,
			out:   `(a (_ (c) @c) @_kf_w0) ((d (e) @e) (f)) (g (h (i)) (#eq? @x "(h (i))"))`,
			kinds: map[string]string{"_kf_w0": "b"},
		},
		{
			// Alternatives stay, and what lies inside them.
			in:    "(a (x (y) @y) ; (z (y) @y)\n [(b \"+\" @s) (c (d (_) @w))] @v)",
			out:   "(a (_ (y) @y) @_kf_w0 ; (z (y) @y)\n [(b \"+\" @s) (c (d (_) @w))] @v)",
			kinds: map[string]string{"_kf_w0": "x"},
		},
		// Quantified, or inside a quantified step or grouping.
		{in: `(object (pair key: (property_identifier) @k)* @pairs)`, out: `(object (pair key: (property_identifier) @k)* @pairs)`},
		{in: `(a (b (c (d) @d))?)`, out: `(a (b (c (d) @d))?)`},
		{in: `(a ((b (c) @c) (d))+)`, out: `(a ((b (c) @c) (d))+)`},
		// No capture pins the node: none, or only under a quantifier.
		{in: `(program (expression_statement (call_expression))) @p`, out: `(program (expression_statement (call_expression))) @p`},
		{in: `(a (b (c)* @c))`, out: `(a (b (c)* @c))`},
		{in: `(a (b "x" @s) (c _ @w))`, out: `(a (_ "x" @s) @_kf_w0 (_ _ @w) @_kf_w1)`, kinds: map[string]string{"_kf_w0": "b", "_kf_w1": "c"}},
		{in: `(a !body (b))`, out: `(a !body (b))`},
		{in: `(a (b (c) @x) @_kf_w0)`, out: `(a (b (c) @x) @_kf_w0)`}, // the prefix is taken: as written
	} {
		got, kinds, _ := widen(c.in, any)
		if got != c.out || !maps.Equal(kinds, c.kinds) && len(kinds)+len(c.kinds) > 0 {
			t.Errorf("widen(%q)\n = %q %v\nwant %q %v", c.in, got, kinds, c.out, c.kinds)
		}
	}
	if _, _, ok := widen(`(a (b)`, any); ok {
		t.Error("widen of an unclosed text: ok")
	}
	// A supertype: no node has it as its type.
	ts := regularOf(langTS)
	if !ts("call_expression") || ts("expression") || ts("statement") {
		t.Errorf("regular types: call_expression %v, expression %v, statement %v; want true, false, false",
			ts("call_expression"), ts("expression"), ts("statement"))
	}
	const super = `(expression_statement (expression (identifier) @i))`
	if got, _, _ := widen(super, ts); got != super {
		t.Errorf("widen(%q) = %q, want it as written", super, got)
	}
}

// TestWidenKeepsMatches compiles queries as a first run does (as written)
// and as a later one does (widened, from what the first compile told), and
// runs both: widening must not lose, add or repeat a match. Each query is
// one tree-sitter would answer otherwise through a wildcard step (a state
// holding one capture more drops the one without; identical states no
// longer merge; a supertype is never a node's type).
func TestWidenKeepsMatches(t *testing.T) {
	for _, c := range []struct{ query, src string }{
		{`(statement_block (expression_statement (call_expression) @c)? (return_statement) @r)`, "function f(){ throw a(); return 1 }"},
		{`(statement_block (expression_statement (call_expression) @c)+)`, "function f(){ return b(); c(); }"},
		{`(statement_block (expression_statement (call_expression) @c)* (return_statement) @r)`, "function f(){ throw a(); return 1 }"},
		{`(statement_block [(expression_statement (call_expression)) (throw_statement) @t] (return_statement) @r)`, "function f(){ throw a(); return 1 }"},
		{`(expression_statement (expression (identifier) @i))`, "a(b); c.d;"},
		{`(program (expression_statement (call_expression))) @p`, "a(); b(); c();"},
		{`(program (expression_statement (call_expression (identifier) @f))) @p`, "a(); b(); throw c();"},
		{`(call_expression arguments: (arguments (member_expression object: (identifier) @o)))`, "f(a.b, c); g(x.y.z);"},
	} {
		compiledQueries.Clear()
		written, err := compileQueryText(c.query)
		if err != nil {
			t.Fatal(err)
		}
		widened, err := queryFromMeta(written.meta())
		if err != nil {
			t.Fatal(err)
		}
		f, err := parseFile(&source.File{Path: "x.ts", Data: []byte(c.src)})
		if err != nil {
			t.Fatal(err)
		}
		got, want := runBoth(t, widened, written, f)
		if got != want || want == "" {
			t.Errorf("%s on %q:\nwidened:    %s\nas written: %s", c.query, c.src, got, want)
		}
		f.close()
	}
	compiledQueries.Clear()
}

// TestWidenedQueriesMatchAsWritten runs every query text of the built-in
// catalog as a build compiles it from its embedded entry (widened) and as
// written (as a text without an entry is compiled, which also checks each
// compiles so) on the catalog fixture's files: the matches, their order
// and their captures are the same.
func TestWidenedQueriesMatchAsWritten(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	files := fixtureFiles(t)
	widened, matched := 0, 0
	for _, text := range catalogQueries(cat) {
		if w, _, _ := widen(text, regularOf(langTS)); w != text {
			widened++
		}
		written, err := compileQueryText(text)
		if err != nil {
			t.Fatal(err)
		}
		known := embeddedQuery(text)
		if known == nil || !known.group.widened || written.group.widened {
			t.Fatalf("query %.60q: no embedded entry, or the forms are not what the test compares", text)
		}
		for _, f := range files {
			got, want := runBoth(t, known, written, f)
			if got != want {
				t.Errorf("query %.60q on %s:\nwidened:    %s\nas written: %s", text, f.Path, got, want)
			}
			if want != "" {
				matched++
			}
		}
	}
	if widened == 0 || matched == 0 {
		t.Fatalf("%d texts widened, %d runs with matches: the test compares nothing", widened, matched)
	}
}

// runBoth runs two forms of a query on f's whole tree and describes the
// matches of each.
func runBoth(t *testing.T, a, b *query, f *parsedFile) (string, string) {
	t.Helper()
	var out [2]string
	for i, q := range []*query{a, b} {
		ms, err := q.run(f, f.root, nil)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = describeMatches(ms)
	}
	return out[0], out[1]
}

// TestFirstCompileChecksEveryStep: a child that can never appear under
// its parent is refused when the parent is analysed, which a widened
// text's inner steps are not; a text compiled for the first time (a
// --defs catalog's, before any file is read) is compiled as written and
// the error reported.
func TestFirstCompileChecksEveryStep(t *testing.T) {
	const text = `(call_expression (arguments (program)) @a)`
	w, _, _ := widen(text, regularOf(langTS))
	if q, err := sitter.NewQuery([]byte(w), langTS); err != nil {
		t.Fatalf("widened %q does not compile (%v): the test shows nothing", w, err)
	} else {
		q.Close()
	}
	if _, err := compileQueryText(text); err == nil {
		t.Fatalf("compileQueryText(%q) = nil error, want tree-sitter's refusal", text)
	}
}
