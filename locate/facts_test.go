package locate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/source"

	"github.com/keyfindings/keyfindings/findings"
)

const factDefHead = `id: f
page: prompts
section: S
title: T
claim: C
when: W
path: src/a.ts
`

// runFactDef compiles one definition and runs it over a directory holding
// the given files.
func runFactDef(t *testing.T, def string, files map[string]string) []*findings.Record {
	t.Helper()
	d, err := findings.Parse([]byte(factDefHead+def), "f.yaml")
	if err != nil {
		t.Fatal(err)
	}
	x, err := Compile(&findings.Catalog{Definitions: []*findings.Definition{d}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := x.Extract(source.NewDirSnapshot(dir), Meta{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Document.Findings
}

func factJSON(t *testing.T, r *findings.Record, name string) string {
	t.Helper()
	data, err := json.Marshal(r.Facts[name])
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

const routingSrc = `import A from "./p/a.txt"
import B from "./p/b.txt"
import C from "./p/c.txt"
import D from "./p/d.txt"

function other(id: string) {
  if (id.includes("z")) return [D]
  return [A]
}

export function pick(id: string) {
  if (id.includes("a")) return [A]
  if (id.includes("b")) {
    if (id.includes("c")) {
      return [C]
    }
    return [B]
  }
  return [A]
}
`

func TestFactRootAnchorsAtTheScopeNode(t *testing.T) {
	def := `query: |
  (function_declaration
    name: (identifier) @_n (#eq? @_n "pick")
    body: (statement_block) @_body) @finding
facts:
  - name: rules
    in: _body
    root: _root
    query: |
      (statement_block (if_statement condition: (_) @cond consequence: (_) @then)) @_root
    fields:
      - name: tests
        in: cond
        query: (string (string_fragment) @s)
        list: true
      - name: direct
        in: then
        root: _root
        query: |
          [
            (return_statement (array (identifier) @id)) @_root
            (statement_block (return_statement (array (identifier) @id))) @_root
          ]
  - name: any_return
    in: _body
    query: (return_statement (array (identifier) @id))
`
	recs := runFactDef(t, def, map[string]string{"src/a.ts": routingSrc})
	if len(recs) != 1 || !recs[0].Located() {
		t.Fatalf("records %+v", recs)
	}
	// Only the two top-level ifs are rules; the b rule's direct return is
	// B, not the C of the if nested in it.
	if got := factJSON(t, recs[0], "rules"); got != `[{"direct":"A","tests":["a"]},{"direct":"B","tests":["b"]}]` {
		t.Errorf("rules = %s", got)
	}
	// Without root, a query matches at every depth, in source order.
	if got := factJSON(t, recs[0], "any_return"); got != `["A","C","B","A"]` {
		t.Errorf("any_return = %s", got)
	}
}

func TestFactWhereGuardsAndRequired(t *testing.T) {
	def := `expect: all
key: file
file: file
query: |
  (program
    (import_statement (import_clause (identifier) @name) source: (string) @file)
    (export_statement
      declaration: (function_declaration
        name: (identifier) @_n (#eq? @_n "pick")
        body: (statement_block) @_body)))
facts:
  - name: when
    required: true
    in: _body
    query: (return_statement (array (identifier) @_id)) @route
    where: {_id: name}
    capture: route
    value: guards
    list: true
`
	files := map[string]string{"src/a.ts": routingSrc}
	for _, n := range []string{"a", "b", "c", "d"} {
		files["src/p/"+n+".txt"] = n + "\n"
	}
	recs := runFactDef(t, def, files)
	got := map[string]string{}
	for _, r := range recs {
		if !r.Located() {
			t.Fatalf("%s: %s %s", r.ID, r.Status, *r.Problem)
		}
		got[r.ID] = factJSON(t, r, "when")
	}
	want := map[string]string{
		// A is returned twice: under the a test, and unconditionally last.
		"f-p-a-txt": `[["id.includes(\"a\")"],[]]`,
		"f-p-b-txt": `[["id.includes(\"b\")"]]`,
		"f-p-c-txt": `[["id.includes(\"b\")","id.includes(\"c\")"]]`,
		// D is only returned by another function: not a record.
	}
	if len(got) != len(want) {
		t.Errorf("records %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: when = %s, want %s", id, got[id], w)
		}
	}

	// When no match has the required fact, the finding is missing.
	none := strings.ReplaceAll(files["src/a.ts"], "[A]", "[]")
	none = strings.ReplaceAll(strings.ReplaceAll(none, "[B]", "[]"), "[C]", "[]")
	files["src/a.ts"] = none
	recs = runFactDef(t, def, files)
	if len(recs) != 1 || recs[0].Status != findings.StatusMissing || !strings.Contains(*recs[0].Problem, "required facts (when)") {
		t.Errorf("records %+v, want one missing record naming the required fact", recs)
	}
}

func TestGuards(t *testing.T) {
	src := `export function f(x: number) {
  if (x > 1) {
    return "big"
  } else if (x < 0) {
    return "negative"
  } else {
    const g = () => (x === 0 ? "zero" : "small")
    return g()
  }
}
`
	def := `query: |
  (function_declaration name: (identifier) @_n (#eq? @_n "f")) @finding
facts:
  - name: paths
    query: ((string) @s (#match? @s "[a-z]"))
    fields:
      - {name: text, capture: s}
      - {name: when, capture: s, value: guards}
`
	recs := runFactDef(t, def, map[string]string{"src/a.ts": src})
	want := `[{"text":"big","when":["x \u003e 1"]},` +
		`{"text":"negative","when":["!(x \u003e 1)","x \u003c 0"]},` +
		// Inside the arrow function only its own conditional counts.
		`{"text":"zero","when":["x === 0"]},` +
		`{"text":"small","when":["!(x === 0)"]}]`
	if got := factJSON(t, recs[0], "paths"); got != want {
		t.Errorf("paths = %s\nwant    %s", got, want)
	}
}

func TestFactScopeFile(t *testing.T) {
	src := `const LIMIT = 4 * 1024
export function f() {
  return cut(LIMIT)
}
const marker = "[cut]"
`
	def := `query: |
  (export_statement (function_declaration name: (identifier) @_n (#eq? @_n "f"))) @finding
facts:
  - name: in_span
    query: ((string) @s)
    list: true
  - name: marker
    scope: file
    query: |
      (variable_declarator name: (identifier) @_m (#eq? @_m "marker") value: (string) @s)
  - name: limit
    scope: file
    query: |
      (variable_declarator name: (identifier) @_m (#eq? @_m "LIMIT") value: (_) @v)
    value: number
`
	recs := runFactDef(t, def, map[string]string{"src/a.ts": src})
	r := recs[0]
	if r.Location.Lines.Start != 2 || r.Location.Lines.End != 4 {
		t.Errorf("lines %+v", r.Location.Lines)
	}
	for name, want := range map[string]string{"in_span": `[]`, "marker": `"[cut]"`, "limit": `4096`} {
		if got := factJSON(t, r, name); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
}

func TestStartOnEnclosingNode(t *testing.T) {
	src := `function outer() {
  const a = 1
  const b = 2
  return a + b
}
`
	// @start names the function, @end a statement inside it: the query
	// text has @end first, which is fine.
	def := `query: |
  (function_declaration
    body: (statement_block
      (lexical_declaration (variable_declarator name: (identifier) @_b (#eq? @_b "b"))) @end)) @start
`
	recs := runFactDef(t, def, map[string]string{"src/a.ts": src})
	if r := recs[0]; !r.Located() || r.Location.Lines.Start != 1 || r.Location.Lines.End != 3 {
		t.Errorf("record %s lines %+v", r.Status, r.Location.Lines)
	}
}

func TestFactSpecErrors(t *testing.T) {
	base := "query: |\n  ((identifier) @finding)\nfacts:\n"
	tests := []struct{ name, facts, want string }{
		{"bad scope", "  - {name: x, query: '(identifier) @v', scope: tree}", `scope "tree"`},
		{"scope and in", "  - {name: x, query: '(identifier) @v', scope: file, in: finding}", "exclude each other"},
		{"root without in", "  - {name: x, query: '(identifier) @v @_r', root: _r}", "root needs in"},
		{"root not in query", "  - {name: x, query: '(identifier) @v', in: finding, root: _r}", "no capture @_r"},
		{"where unknown sub capture", "  - {name: x, query: '(identifier) @v', where: {_q: finding}}", "no capture @_q"},
		{"where unknown outer capture", "  - {name: x, query: '(identifier) @v', where: {v: nope}}", "@nope is not a capture"},
		{"required in fields", "  - name: x\n    query: '(identifier) @v'\n    fields:\n      - {name: y, capture: v, required: true}", "top-level facts only"},
		{"bad value kind", "  - {name: x, capture: finding, value: guard}", "unknown value kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := findings.Parse([]byte(factDefHead+base+tt.facts+"\n"), "f.yaml")
			if err == nil {
				_, err = Compile(&findings.Catalog{Definitions: []*findings.Definition{d}})
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "f.yaml") {
				t.Errorf("error %v, want one naming f.yaml and %q", err, tt.want)
			}
		})
	}
}
