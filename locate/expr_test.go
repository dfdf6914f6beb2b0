package locate

import (
	"testing"
)

// TestExprFacts checks the structured form of `value: expr` facts: chains
// flattened, parentheses kept as nesting, negation, calls on subjects,
// comparisons, objects, and unknown constructs kept as source text.
func TestExprFacts(t *testing.T) {
	def := `query: |
  (lexical_declaration (variable_declarator name: (identifier) @_n value: (_) @v)) @finding
expect: all
key: _n
facts:
  - {name: e, capture: v, value: expr}
`
	cases := []struct{ src, want string }{
		{`const a = x.id.includes("gpt") || x.id.includes("o1") || x.id.includes("o3")`,
			`{"args":[{"args":[{"op":"string","value":"gpt"}],"method":"includes","on":{"name":"x.id","op":"ref"},"op":"call"},{"args":[{"op":"string","value":"o1"}],"method":"includes","on":{"name":"x.id","op":"ref"},"op":"call"},{"args":[{"op":"string","value":"o3"}],"method":"includes","on":{"name":"x.id","op":"ref"},"op":"call"}],"op":"or"}`},
		{`const a = p && !(q || r)`,
			`{"args":[{"name":"p","op":"ref"},{"arg":{"args":[{"name":"q","op":"ref"},{"name":"r","op":"ref"}],"op":"or"},"op":"not"}],"op":"and"}`},
		{`const a = (p || q) || r`,
			`{"args":[{"args":[{"name":"p","op":"ref"},{"name":"q","op":"ref"}],"op":"or"},{"name":"r","op":"ref"}],"op":"or"}`},
		{`const a = m.id.toLowerCase().includes("kimi")`,
			`{"args":[{"op":"string","value":"kimi"}],"method":"includes","on":{"args":[],"method":"toLowerCase","on":{"name":"m.id","op":"ref"},"op":"call"},"op":"call"}`},
		{`const a = id === P.ID.opencode`,
			`{"args":[{"name":"id","op":"ref"},{"name":"P.ID.opencode","op":"ref"}],"op":"==="}`},
		{`const a = f(x, { exa: y.e, n: 2, b: true, z })`,
			`{"args":[{"name":"x","op":"ref"},{"fields":{"b":{"op":"bool","value":true},"exa":{"name":"y.e","op":"ref"},"n":{"op":"number","value":2},"z":{"name":"z","op":"ref"}},"op":"object"}],"function":"f","op":"call"}`},
		{`const a = ["x", "y"].includes(c)`,
			`{"args":[{"name":"c","op":"ref"}],"method":"includes","on":{"items":[{"op":"string","value":"x"},{"op":"string","value":"y"}],"op":"array"},"op":"call"}`},
		{`const a = x?.y > 3`, `{"op":"unknown","text":"x?.y \u003e 3"}`},
		{"const a = `t${x}`", "{\"op\":\"unknown\",\"text\":\"`t${x}`\"}"},
	}
	for _, c := range cases {
		recs := runFactDef(t, def, map[string]string{"src/a.ts": c.src + "\n"})
		if len(recs) != 1 {
			t.Fatalf("%s: %d records", c.src, len(recs))
		}
		if got := factJSON(t, recs[0], "e"); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.src, got, c.want)
		}
	}
}
