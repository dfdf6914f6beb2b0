package locate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestAnchorsRequired checks that a query's anchors are only the #eq?
// literals every match must contain: not those of one alternative, nor
// of an optional node, nor of a predicate against another capture.
func TestAnchorsRequired(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{`(function_declaration name: (identifier) @_n (#eq? @_n "alpha")) @finding`, []string{"alpha"}},
		{`[
		   (function_declaration name: (identifier) @_a (#eq? @_a "alpha")) @finding
		   (function_declaration name: (identifier) @_b (#eq? @_b "beta")) @finding
		 ]`, nil},
		{`(call_expression
		   function: (identifier) @_f (#eq? @_f "run")
		   arguments: (arguments (string)? @_s (#eq? @_s "\"x\""))) @finding`, []string{"run"}},
		{`(call_expression
		   function: (identifier) @_f (#eq? @_f "run")
		   arguments: (arguments [(string) @_s (number) @_n] (#eq? @_s "\"x\""))) @finding`, []string{"run"}},
		{`(lexical_declaration (variable_declarator name: (identifier) @_a value: (identifier) @_b (#eq? @_a @_b))) @finding`, nil},
		{`(program (comment)* @_c (#eq? @_c "// x") (function_declaration name: (identifier) @_n (#not-eq? @_n "beta"))) @finding`, nil},
		{`(program (expression_statement)+ @_e (#eq? @_e "go()")) @finding`, []string{"go()"}},
		// Every alternative demands "Tool" (under another capture name
		// in each); only the first demands "alpha".
		{`[
		   (call_expression function: (identifier) @_t (#eq? @_t "Tool") arguments: (arguments (string) @_s (#eq? @_s "alpha"))) @finding
		   (call_expression function: (identifier) @_t2 (#eq? @_t2 "Tool")) @finding
		 ]`, []string{"Tool"}},
		// Two patterns: what both demand.
		{`(call_expression function: (identifier) @_a (#eq? @_a "run") arguments: (arguments (identifier) @_b (#eq? @_b "x"))) @finding
		  (call_expression function: (identifier) @_c (#eq? @_c "run")) @finding`, []string{"run"}},
		// An optional alternative demands nothing.
		{`(program [(comment) @_c (#eq? @_c "// a") (comment) @_d (#eq? @_d "// a")]? (function_declaration)) @finding`, nil},
		{`(program [(comment) @_c (#eq? @_c "// a") (comment) @_d (#eq? @_d "// a")] (function_declaration)) @finding`, []string{"// a"}},
	} {
		q, err := compileQueryText(tc.text)
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		if !slices.Equal(q.anchors, tc.want) {
			t.Errorf("anchors of %s = %q, want %q", tc.text, q.anchors, tc.want)
		}
		if m := q.meta(); true {
			r, err := queryFromMeta(m)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.anchors, tc.want) {
				t.Errorf("anchors from the cache entry of %s = %q, want %q", tc.text, r.anchors, tc.want)
			}
		}
	}
}

// TestSearchFindsEitherAlternative: a file that moved is found by the
// tree search when it holds the code of one alternative of the query
// only.
func TestSearchFindsEitherAlternative(t *testing.T) {
	defs := t.TempDir()
	def := `id: alt
page: tools
section: How a request is built and sent
title: Alternatives fixture
claim: One of two functions.
when: Always.
path: src/old/a.ts
query: |
  [
    (function_declaration name: (identifier) @_a (#eq? @_a "alpha")) @finding
    (function_declaration name: (identifier) @_b (#eq? @_b "beta")) @finding
  ]
`
	if err := os.WriteFile(filepath.Join(defs, "alt.yaml"), []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	x := loadDefs(t, defs)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src/new"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src/new/a.ts"), []byte("export function beta() {\n  return 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := extractDir(t, x, dir).Find("alt")
	if !r.Located() || r.Location.Path != "src/new/a.ts" {
		t.Fatalf("status %s problem %q, want located in src/new/a.ts", r.Status, deref(r.Problem))
	}
}
