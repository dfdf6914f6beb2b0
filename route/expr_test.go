package route

import (
	"encoding/json"
	"strings"
	"testing"
)

func parse(t *testing.T, js string) Expr {
	t.Helper()
	var x Expr
	if err := json.Unmarshal([]byte(js), &x); err != nil {
		t.Fatal(err)
	}
	return x
}

const (
	idRef    = `{"op":"ref","name":"model.api.id"}`
	provRef  = `{"op":"ref","name":"model.providerID"}`
	lowerRef = `{"op":"call","method":"toLowerCase","on":` + idRef + `,"args":[]}`
)

func incl(on, s string) string {
	return `{"op":"call","method":"includes","on":` + on + `,"args":[{"op":"string","value":"` + s + `"}]}`
}

// TestEval holds the small expression language to JavaScript's meaning on
// synthetic conditions, and unknowns to naming what was not known.
func TestEval(t *testing.T) {
	env := &Env{
		Refs: map[string]Value{"model.api.id": known("My-GPT-5"), "model.providerID": known("acme")},
		Locals: map[string]Expr{
			"usePatch": parse(t, `{"op":"and","args":[`+incl(idRef, "GPT-")+`,{"op":"not","arg":`+incl(idRef, "oss")+`}]}`),
		},
		Functions: map[string]Function{"enabled": {Params: []string{"p", "flags"},
			Returns: parse(t, `{"op":"or","args":[{"op":"===","args":[{"op":"ref","name":"p"},{"op":"string","value":"house"}]},{"op":"ref","name":"flags.exa"}]}`)}},
		Tools: map[string]string{"EditTool": "edit", "ShellTool": ""},
	}
	cases := []struct {
		name, expr string
		want       string // "true", "false" or "unknown: <substring>"
	}{
		{"includes is case-sensitive", incl(idRef, "gpt"), "false"},
		{"lower-cased subject", incl(lowerRef, "gpt-5"), "true"},
		{"or: any true", `{"op":"or","args":[` + incl(idRef, "x") + `,` + incl(idRef, "GPT") + `]}`, "true"},
		{"and: one false", `{"op":"and","args":[` + incl(idRef, "GPT") + `,` + incl(idRef, "x") + `]}`, "false"},
		{"negation", `{"op":"not","arg":` + incl(idRef, "x") + `}`, "true"},
		{"provider test", `{"op":"===","args":[` + provRef + `,{"op":"string","value":"acme"}]}`, "true"},
		{"provider startsWith", `{"op":"call","method":"startsWith","on":` + provRef + `,"args":[{"op":"string","value":"ho"}]}`, "false"},
		{"local", `{"op":"ref","name":"usePatch"}`, "true"},
		{"array includes", `{"op":"call","method":"includes","on":{"op":"array","items":[{"op":"string","value":"a"},{"op":"string","value":"acme"}]},"args":[` + provRef + `]}`, "true"},
		{"function call binds params", `{"op":"call","function":"enabled","args":[{"op":"string","value":"house"},{"op":"object","fields":{"exa":{"op":"ref","name":"flags.enableExa"}}}]}`, "true"},
		{"function call, run-time flag", `{"op":"call","function":"enabled","args":[` + provRef + `,{"op":"object","fields":{"exa":{"op":"ref","name":"flags.enableExa"}}}]}`, "unknown: flags.enableExa"},
		{"or: false and unknown", `{"op":"or","args":[` + incl(idRef, "x") + `,{"op":"ref","name":"flags.on"}]}`, "unknown: flags.on"},
		{"or: true beats unknown", `{"op":"or","args":[{"op":"ref","name":"flags.on"},` + incl(idRef, "GPT") + `]}`, "true"},
		{"and: false beats unknown", `{"op":"and","args":[{"op":"ref","name":"flags.on"},` + incl(idRef, "x") + `]}`, "false"},
		{"unknown construct", `{"op":"unknown","text":"a?.b > 3"}`, "unknown: cannot evaluate: a?.b > 3"},
		{"unknown method", `{"op":"call","method":"match","on":` + idRef + `,"args":[{"op":"string","value":"x"}]}`, "unknown: cannot evaluate: model.api.id.match(\"x\")"},
		{"unknown function", `{"op":"call","function":"nope","args":[]}`, "unknown: cannot evaluate: nope()"},
		{"tool ids by definition", `{"op":"===","args":[{"op":"ref","name":"EditTool.id"},{"op":"ref","name":"EditTool.id"}]}`, "true"},
		{"tool id against a string", `{"op":"===","args":[{"op":"ref","name":"EditTool.id"},{"op":"string","value":"edit"}]}`, "true"},
		{"unextracted tool id against a string", `{"op":"!==","args":[{"op":"ref","name":"ShellTool.id"},{"op":"string","value":"bash"}]}`, "unknown: cannot evaluate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := Eval(parse(t, c.expr), env)
			got := "unknown: " + strings.Join(v.Unknown, "; ")
			if v.Known {
				got = "not a boolean"
				if b, ok := v.V.(bool); ok {
					got = map[bool]string{true: "true", false: "false"}[b]
				}
			}
			if got != c.want && !(strings.HasPrefix(c.want, "unknown: ") && strings.HasPrefix(got, "unknown: ") && strings.Contains(got, c.want[len("unknown: "):])) {
				t.Errorf("%s\n got %s\nwant %s", Source(parse(t, c.expr)), got, c.want)
			}
		})
	}
}
