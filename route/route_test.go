package route

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

func rec(t *testing.T, id, facts string, tokens *findings.Tokens) *findings.Record {
	t.Helper()
	var f findings.Facts
	if err := json.Unmarshal([]byte(facts), &f); err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	return &findings.Record{ID: id, Status: findings.StatusLocated, Facts: f, Location: &findings.Location{Tokens: tokens}}
}

func testConfig() *Config {
	c := &Config{}
	c.Inputs.Model = []string{"model.api.id", "input.modelID"}
	c.Inputs.Provider = []string{"model.providerID", "input.providerID"}
	c.Definitions.Routing, c.Definitions.PromptFiles = "routing", "files"
	c.Definitions.Registry, c.Definitions.Advertising, c.Definitions.Tools = "registry", "adv", "desc"
	c.Sections = []Section{{Name: "reminders", Definition: "reminders"}}
	return c
}

// testDoc is a synthetic catalog: nested routing rules (one that falls
// through), a lower-cased subject, a provider test, a gated tool and
// filters by model id.
func testDoc(t *testing.T) *findings.Document {
	rule := func(cond, file, nested string) string {
		s := `{"cond":` + cond
		if file != "" {
			s += `,"file":"` + file + `"`
		}
		if nested != "" {
			s += `,"rules":[` + nested + `]`
		}
		return s + "}"
	}
	rules := `[` + strings.Join([]string{
		rule(incl(idRef, "alpha"), "p/alpha.txt", ""),
		rule(incl(idRef, "wide"), "p/wide.txt", rule(`{"op":"or","args":[`+incl(idRef, "fast")+`,`+incl(idRef, "quick")+`]}`, "p/fast.txt", "")),
		rule(incl(idRef, "deep"), "", rule(incl(idRef, "er"), "p/deeper.txt", "")),
		rule(`{"op":"and","args":[`+incl(lowerRef, "low")+`,{"op":"not","arg":{"op":"===","args":[`+provRef+`,{"op":"string","value":"house"}]}}]}`, "p/low.txt", ""),
		rule(`{"op":"unknown","text":"model.api.id.match(/x/)"}`, "p/x.txt", ""),
	}, ",") + `]`
	tok := func(n int) *findings.Tokens { return &findings.Tokens{O200kBase: n, Cl100kBase: n + 1} }
	return &findings.Document{Findings: []*findings.Record{
		rec(t, "routing", `{"rules":`+rules+`,"fallback":"p/plain.txt"}`, nil),
		rec(t, "files-a", `{"path":"p/alpha.txt"}`, tok(100)),
		rec(t, "files-f", `{"path":"p/fast.txt"}`, tok(200)),
		rec(t, "files-p", `{"path":"p/plain.txt"}`, tok(300)),
		rec(t, "registry", `{
			"builtin":[{"tool":"shell"},{"tool":"edit"},{"tool":"patch"},{"tool":"map","gate":"flags.map","gate_expr":{"op":"ref","name":"flags.map"}}],
			"inits":[{"key":"shell","var":"sh"},{"key":"edit","var":"ed"},{"key":"patch","var":"pa"},{"key":"map","var":"mp"}],
			"definitions":[{"var":"sh","tool":"ShellTool"},{"var":"ed","tool":"EditTool"},{"var":"pa","tool":"PatchTool"},{"var":"mp","tool":"MapTool"}]}`, nil),
		rec(t, "adv", `{
			"filters":[
				{"cond":{"op":"===","args":[{"op":"ref","name":"tool.id"},{"op":"ref","name":"PatchTool.id"}]},"keep":{"op":"ref","name":"usePatch"}},
				{"cond":{"op":"===","args":[{"op":"ref","name":"tool.id"},{"op":"ref","name":"EditTool.id"}]},"keep":{"op":"not","arg":{"op":"ref","name":"usePatch"}}}],
			"locals":[{"name":"usePatch","value":`+incl(`{"op":"ref","name":"input.modelID"}`, "wide")+`}],
			"otherwise":{"op":"bool","value":true}}`, nil),
		rec(t, "desc-edit", `{"tool":"EditTool","id":"edit"}`, tok(10)),
		rec(t, "desc-patch", `{"tool":"PatchTool","id":"apply"}`, tok(20)),
		rec(t, "desc-map", `{"tool":"MapTool","id":"map"}`, tok(40)),
	}}
}

func TestEvaluate(t *testing.T) {
	doc := testDoc(t)
	cases := []struct {
		model, provider, prompt, rule string
		tools                         string // id=advertised, in registry order
		total                         int
	}{
		{"alpha-1", "acme", "p/alpha.txt", `model.api.id.includes("alpha")`, "shell=yes edit=yes apply=no map=depends", 110},
		{"wide-quick", "acme", "p/fast.txt", `model.api.id.includes("wide") → model.api.id.includes("fast") || model.api.id.includes("quick")`, "shell=yes edit=no apply=yes map=depends", 220},
		{"wide-1", "acme", "p/wide.txt", `model.api.id.includes("wide")`, "shell=yes edit=no apply=yes map=depends", 20},
		// A nested rule that does not hold, in a rule with no return of its
		// own, falls through to the rules after it.
		{"deep-1", "acme", "", "", "", 10},
		{"deeper", "acme", "p/deeper.txt", `model.api.id.includes("deep") → model.api.id.includes("er")`, "shell=yes edit=yes apply=no map=depends", 10},
		{"LOW-1", "acme", "p/low.txt", "", "", 10},
		{"LOW-1", "house", "", "", "", 10},
		{"zzz", "acme", "", "", "", 10},
	}
	for _, c := range cases {
		rt, err := Evaluate(doc, testConfig(), Model{ID: c.model, Provider: c.provider})
		if err != nil {
			t.Fatal(err)
		}
		name := c.model + "@" + c.provider
		switch {
		case c.prompt != "" && (rt.Prompt.Path != c.prompt || (c.rule != "" && rt.Prompt.Rule != c.rule)):
			t.Errorf("%s: prompt %q by %q, want %q by %q", name, rt.Prompt.Path, rt.Prompt.Rule, c.prompt, c.rule)
		case c.prompt == "" && rt.Prompt.Path != "":
			t.Errorf("%s: prompt %q, want undecided (a rule cannot be evaluated)", name, rt.Prompt.Path)
		case c.prompt == "" && !strings.Contains(strings.Join(rt.Prompt.Undecided, ";"), "cannot evaluate: model.api.id.match(/x/)"):
			t.Errorf("%s: undecided %q does not name the expression", name, rt.Prompt.Undecided)
		}
		if c.tools != "" {
			var got []string
			for _, tl := range rt.Tools {
				got = append(got, tl.ID+"="+tl.Advertised)
			}
			if strings.Join(got, " ") != c.tools {
				t.Errorf("%s: tools %s, want %s", name, strings.Join(got, " "), c.tools)
			}
		}
		if rt.Tokens.O200kBase != c.total {
			t.Errorf("%s: total %d, want %d", name, rt.Tokens.O200kBase, c.total)
		}
		if s := rt.Sections[len(rt.Sections)-1]; s.Counted || !strings.Contains(s.Note, "not yet counted") {
			t.Errorf("%s: section %s = %+v, want not yet counted", name, s.Name, s)
		}
	}
}

func TestEvaluateNeedsRecords(t *testing.T) {
	doc := testDoc(t)
	doc.Findings = doc.Findings[1:]
	if _, err := Evaluate(doc, testConfig(), Model{ID: "x"}); err == nil || !strings.Contains(err.Error(), "routing") {
		t.Fatalf("err = %v, want one naming the routing record", err)
	}
}

// TestDisabledMap: the older advertising form, a map of tools turned off,
// unconditionally or under a condition read at run time.
func TestDisabledMap(t *testing.T) {
	entries := []Expr{
		{"tool": "patch", "when": []any{}},
		{"tool": "edit", "when": []any{`agent.permission.edit === "deny"`}},
	}
	for _, tc := range []struct {
		id       string
		resolved bool
		want     string
	}{
		{"patch", true, "no"},
		{"edit", true, "depends"},
		{"read", true, "yes"},
		{"PatchTool", false, "depends"},
	} {
		var tool Tool
		if got := disabledMap(entries, tc.id, tc.resolved, &tool); got != tc.want {
			t.Errorf("%s: %s, want %s (steps %+v)", tc.id, got, tc.want, tool.Steps)
		}
		if len(tool.Steps) != 1 {
			t.Errorf("%s: %d steps, want 1", tc.id, len(tool.Steps))
		}
	}
}
