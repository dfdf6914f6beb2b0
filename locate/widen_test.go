package locate

import (
	"maps"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/keyfindings/keyfindings/findings"
)

// TestWiden checks which steps widen makes wildcards: those with children
// below a pattern's root, never a root, a leaf, a predicate or a
// grouping, and that the capture it adds comes after any quantifier.
func TestWiden(t *testing.T) {
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
			in:    `(object (pair key: (property_identifier) @k)* @pairs)`,
			out:   `(object (_ key: (property_identifier) @k)* @_kf_w0 @pairs)`,
			kinds: map[string]string{"_kf_w0": "pair"},
		},
		{
			// Roots of alternatives and of sibling groups stay; a
			// predicate's strings and parentheses are not steps.
			in:    `[ (a (b (c))) ((d (e)) (f)) ] (g (#eq? @x "(h (i))"))`,
			out:   `[ (a (_ (c)) @_kf_w0) ((d (e)) (f)) ] (g (#eq? @x "(h (i))"))`,
			kinds: map[string]string{"_kf_w0": "b"},
		},
		{
			// An alternation below a node: its members are below the root.
			in:    "(a ; comment (x (y))\n [(b \"+\") (c (_))] @v)",
			out:   "(a ; comment (x (y))\n [(_ \"+\") @_kf_w0 (_ (_)) @_kf_w1] @v)",
			kinds: map[string]string{"_kf_w0": "b", "_kf_w1": "c"},
		},
		{in: `(a !body (b))`, out: `(a !body (b))`},
		{in: `(a (b) @_kf_w0)`, out: `(a (b) @_kf_w0)`}, // the prefix is taken: as written
	} {
		got, kinds, _ := widen(c.in)
		if got != c.out || !maps.Equal(kinds, c.kinds) && len(kinds)+len(c.kinds) > 0 {
			t.Errorf("widen(%q)\n = %q %v\nwant %q %v", c.in, got, kinds, c.out, c.kinds)
		}
	}
	if _, _, ok := widen(`(a (b)`); ok {
		t.Error("widen of an unclosed text: ok")
	}
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
		if w, _, _ := widen(text); w != text {
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
			want, err := written.run(f, f.root, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := known.run(f, f.root, nil)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := describeMatches(got), describeMatches(want); g != w {
				t.Errorf("query %.60q on %s:\nwidened:    %s\nas written: %s", text, f.Path, g, w)
			}
			matched += len(want)
		}
	}
	if widened == 0 || matched == 0 {
		t.Fatalf("%d texts widened, %d matches: the test compares nothing", widened, matched)
	}
}

// TestFirstCompileChecksEveryStep: a child that can never appear under
// its parent is refused when the parent is analysed, which a widened
// text's inner steps are not; a text compiled for the first time (a
// --defs catalog's, before any file is read) is compiled as written and
// the error reported.
func TestFirstCompileChecksEveryStep(t *testing.T) {
	const text = `(call_expression (arguments (program)) @a)`
	w, _, _ := widen(text)
	if q, err := sitter.NewQuery([]byte(w), langTS); err != nil {
		t.Fatalf("widened %q does not compile (%v): the test shows nothing", w, err)
	} else {
		q.Close()
	}
	if _, err := compileQueryText(text); err == nil {
		t.Fatalf("compileQueryText(%q) = nil error, want tree-sitter's refusal", text)
	}
}
