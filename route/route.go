package route

import (
	"fmt"
	"path"
	"strings"

	"github.com/keyfindings/keyfindings/findings"
)

// Config is the data beside the definitions that a route needs: which
// names in the extracted code hold the model id and the provider id, which
// definitions hold the rules, and the representative models.
type Config struct {
	// Inputs lists the expressions the code reads the model's API id and
	// the provider id from.
	Inputs struct {
		Model    []string `yaml:"model" json:"model"`
		Provider []string `yaml:"provider" json:"provider"`
	} `yaml:"inputs" json:"inputs"`
	// Definitions names the definitions that hold the facts.
	Definitions struct {
		Routing     string `yaml:"routing" json:"routing"`
		PromptFiles string `yaml:"prompt_files" json:"prompt_files"`
		Registry    string `yaml:"registry" json:"registry"`
		Advertising string `yaml:"advertising" json:"advertising"`
		Tools       string `yaml:"tool_descriptions" json:"tool_descriptions"`
	} `yaml:"definitions" json:"definitions"`
	// Sections are further parts of the token budget, each counted from
	// the records of one definition once the catalog has them.
	Sections []Section `yaml:"sections" json:"sections"`
	// Models are the representative models of the routes page.
	Models []Model `yaml:"models" json:"models"`
}

// Section is a part of the token budget counted from one definition's
// records.
type Section struct {
	Name       string `yaml:"name" json:"name"`
	Definition string `yaml:"definition" json:"definition"`
}

// Model is a model id (the provider's API id) and its provider id.
type Model struct {
	ID       string `yaml:"id" json:"id"`
	Provider string `yaml:"provider" json:"provider"`
	// Tokenizer names the public encoding the model's own tokenizer is
	// (o200k_base for OpenAI's recent models); "" when its tokenizer is
	// not public, so an o200k_base count is an estimate for it.
	Tokenizer string `yaml:"tokenizer,omitempty" json:"tokenizer,omitempty"`
}

// Citation names the record a decision rests on.
type Citation struct {
	Record string  `json:"record"`
	Path   string  `json:"path,omitempty"`
	Lines  string  `json:"lines,omitempty"`
	SHA256 string  `json:"sha256,omitempty"`
	Link   *string `json:"permalink"`
}

// Step is one rule as evaluated: its condition, the outcome, and why an
// outcome is unknown.
type Step struct {
	Rule    string   `json:"rule"`
	Outcome string   `json:"outcome"` // "true", "false", "unknown"
	Unknown []string `json:"unknown,omitempty"`
}

// Prompt is the provider prompt decision.
type Prompt struct {
	// Path is the chosen file ("" when undecided).
	Path string `json:"path"`
	// Rule is the condition that chose it ("" for the fallback).
	Rule string `json:"rule"`
	// Steps are the rules evaluated, in order, up to the decision.
	Steps  []Step           `json:"steps"`
	Tokens *findings.Tokens `json:"tokens"`
	// Undecided says why no file could be chosen.
	Undecided []string   `json:"undecided,omitempty"`
	Cites     []Citation `json:"citations"`
}

// Tool is one registry entry as the route sees it.
type Tool struct {
	ID string `json:"id"`
	// Key is the registry's key of the entry; Definition its tool constant.
	Key        string `json:"key"`
	Definition string `json:"definition,omitempty"`
	// Advertised is "yes", "no" or "depends".
	Advertised string `json:"advertised"`
	// Steps are the gate and filters evaluated for it.
	Steps  []Step           `json:"steps"`
	Tokens *findings.Tokens `json:"tokens"`
	// Description is the record of its description text, when one is.
	Description string     `json:"description_record,omitempty"`
	Cites       []Citation `json:"citations"`
}

// Part is one record counted in a route's total: what it is in the route
// ("prompt gpt.txt", "bash description", a section's name) and its count.
type Part struct {
	Record string          `json:"record"`
	Label  string          `json:"label"`
	Tokens findings.Tokens `json:"tokens"`
}

// SectionTokens is one part of the budget.
type SectionTokens struct {
	Name    string           `json:"name"`
	Tokens  *findings.Tokens `json:"tokens"`
	Counted bool             `json:"counted"`
	Note    string           `json:"note,omitempty"`
}

// Route is the answer for one model.
type Route struct {
	Model    string           `json:"model"`
	Provider string           `json:"provider"`
	Prompt   Prompt           `json:"prompt"`
	Tools    []Tool           `json:"tools"`
	Sections []SectionTokens  `json:"sections"`
	Tokens   *findings.Tokens `json:"tokens"`
	// Counted are the records whose token counts make up Tokens.
	Counted []Part `json:"counted"`
	// RunTime lists what the answer does not cover because the code reads
	// it at run time: the `when` of the records the decisions rest on.
	RunTime []string `json:"run_time"`
}

// Error reports records a route cannot be computed without.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Evaluate computes the route of one model from the records of doc.
func Evaluate(doc *findings.Document, cfg *Config, m Model) (*Route, error) {
	return evaluate(index(doc), cfg, m)
}

// evaluate computes the route of one model from the indexed records,
// which it does not modify (Totals shares them between models).
func evaluate(ix *records, cfg *Config, m Model) (*Route, error) {
	routing := ix.one(cfg.Definitions.Routing)
	registry := ix.one(cfg.Definitions.Registry)
	adv := ix.one(cfg.Definitions.Advertising)
	// In a fixed order, so the error names the same record every time.
	for i, r := range []*findings.Record{routing, registry, adv} {
		if r == nil || !r.Located() {
			id := []string{cfg.Definitions.Routing, cfg.Definitions.Registry, cfg.Definitions.Advertising}[i]
			return nil, &Error{Msg: fmt.Sprintf("record %s is not located at this commit; a route needs it", id)}
		}
	}
	rt := &Route{Model: m.ID, Provider: m.Provider}
	base := cfg.bindings(m)
	rt.Prompt = choosePrompt(routing, ix.prefix(cfg.Definitions.PromptFiles), base)
	rt.Tools = chooseTools(registry, adv, ix.prefix(cfg.Definitions.Tools), base)
	rt.Sections, rt.Tokens = budget(rt, cfg, ix)
	for _, r := range []*findings.Record{routing, registry, adv} {
		rt.RunTime = append(rt.RunTime, r.ID+": "+strings.Join(strings.Fields(r.When), " "))
	}
	return rt, nil
}

func (cfg *Config) bindings(m Model) map[string]Value {
	refs := map[string]Value{}
	for _, n := range cfg.Inputs.Model {
		refs[n] = known(m.ID)
	}
	for _, n := range cfg.Inputs.Provider {
		refs[n] = known(m.Provider)
	}
	return refs
}

type records struct {
	byID  map[string]*findings.Record
	order []*findings.Record
}

func index(doc *findings.Document) *records {
	ix := &records{byID: map[string]*findings.Record{}}
	for _, r := range doc.Findings {
		r := *r
		r.Facts = findings.Normalize(r.Facts)
		ix.byID[r.ID] = &r
		ix.order = append(ix.order, &r)
	}
	return ix
}

func (ix *records) one(id string) *findings.Record { return ix.byID[id] }

// prefix lists the located records of an expect: all definition.
func (ix *records) prefix(def string) []*findings.Record {
	var out []*findings.Record
	for _, r := range ix.order {
		if strings.HasPrefix(r.ID, def+"-") && r.Located() {
			out = append(out, r)
		}
	}
	return out
}

func cite(r *findings.Record) Citation {
	c := Citation{Record: r.ID}
	if l := r.Location; l != nil {
		c.Path, c.SHA256 = l.Path, l.SHA256
		c.Lines = fmt.Sprintf("L%d-%d", l.Lines.Start, l.Lines.End)
		if l.Permalink != "" {
			link := l.Permalink
			c.Link = &link
		}
	}
	return c
}

func step(rule string, v Value) Step {
	s := Step{Rule: rule, Outcome: "unknown", Unknown: v.Unknown}
	if b, ok := v.V.(bool); ok && v.Known {
		s.Outcome = fmt.Sprint(b)
	} else if v.Known {
		s.Unknown = []string{"cannot evaluate: " + rule + " (not a boolean)"}
	}
	return s
}

func choosePrompt(routing *findings.Record, files []*findings.Record, refs map[string]Value) Prompt {
	p := Prompt{Cites: []Citation{cite(routing)}}
	env := &Env{Refs: refs}
	path, rule, ok := walkRules(asList(routing.Facts["rules"]), env, &p, nil)
	switch {
	case !ok:
		return p
	case path == "":
		path, _ = routing.Facts["fallback"].(string)
		rule = ""
	}
	p.Path, p.Rule = path, rule
	for _, f := range files {
		if fp, _ := f.Facts["path"].(string); fp == path {
			p.Tokens = f.Location.Tokens
			p.Cites = append(p.Cites, cite(f))
		}
	}
	return p
}

// walkRules runs rules in order as `provider` does: the first whose
// condition holds decides (its nested rules first, then its own return);
// a rule without a return of its own falls through. ok is false when an
// unknown condition stops the walk.
func walkRules(rules []Expr, env *Env, p *Prompt, outer []string) (path, rule string, ok bool) {
	for _, r := range rules {
		cond := asExpr(r["cond"])
		if cond == nil {
			p.Undecided = append(p.Undecided, "a rule has no structured condition (cond); rebuild with a catalog that extracts it")
			return "", "", false
		}
		v := Eval(cond, env)
		s := step(Source(cond), v)
		p.Steps = append(p.Steps, s)
		switch s.Outcome {
		case "unknown":
			p.Undecided = append(p.Undecided, s.Unknown...)
			return "", "", false
		case "false":
			continue
		}
		chain := append(append([]string{}, outer...), Source(cond))
		if sub, subRule, ok := walkRules(asList(r["rules"]), env, p, chain); !ok || sub != "" {
			return sub, subRule, ok
		}
		if f, _ := r["file"].(string); f != "" {
			return f, strings.Join(chain, " → "), true
		}
	}
	return "", "", true
}

func chooseTools(registry, adv *findings.Record, descs []*findings.Record, refs map[string]Value) []Tool {
	byDef := map[string]*findings.Record{}
	toolIDs := map[string]string{}
	for _, d := range descs {
		if def, _ := d.Facts["tool"].(string); def != "" {
			byDef[def] = d
			id, _ := d.Facts["id"].(string)
			toolIDs[def] = id
		}
	}
	varOf := map[string]string{}
	for _, in := range asList(registry.Facts["inits"]) {
		varOf[fmt.Sprint(in["key"])] = fmt.Sprint(in["var"])
	}
	defOf := map[string]string{}
	for _, d := range asList(registry.Facts["definitions"]) {
		defOf[fmt.Sprint(d["var"])] = fmt.Sprint(d["tool"])
		if _, ok := toolIDs[fmt.Sprint(d["tool"])]; !ok {
			toolIDs[fmt.Sprint(d["tool"])] = ""
		}
	}
	gateEnv := &Env{Refs: refs, Locals: locals(registry), Tools: toolIDs}
	funcs := map[string]Function{}
	for _, f := range asList(adv.Facts["functions"]) {
		var params []string
		for _, p := range asAnyList(f["params"]) {
			params = append(params, fmt.Sprint(p))
		}
		funcs[fmt.Sprint(f["name"])] = Function{Params: params, Returns: asExpr(f["returns"])}
	}
	var out []Tool
	for _, b := range asList(registry.Facts["builtin"]) {
		key := fmt.Sprint(b["tool"])
		def := defOf[varOf[key]]
		t := Tool{Key: key, Definition: def, ID: key, Cites: []Citation{cite(registry)}}
		if id := toolIDs[def]; id != "" {
			t.ID = id
		}
		if d := byDef[def]; d != nil {
			t.Tokens, t.Description = d.Location.Tokens, d.ID
			t.Cites = append(t.Cites, cite(d))
		}
		t.Advertised = "yes"
		if gate, ok := b["gate"]; ok {
			g := asExpr(b["gate_expr"])
			var s Step
			if g == nil {
				s = Step{Rule: fmt.Sprint(gate), Outcome: "unknown", Unknown: []string{"cannot evaluate: " + fmt.Sprint(gate) + " (no structured gate)"}}
			} else {
				s = step(Source(g), Eval(g, gateEnv))
			}
			t.Steps = append(t.Steps, s)
			t.Advertised = map[string]string{"true": "yes", "false": "no", "unknown": "depends"}[s.Outcome]
		}
		if t.Advertised != "no" {
			var keep string
			if _, ok := adv.Facts["disabled"]; ok {
				keep = disabledMap(asList(adv.Facts["disabled"]), t.ID, def == "" || toolIDs[def] != "", &t)
			} else {
				keep = filterTool(adv, refs, toolIDs, funcs, def, t.ID, &t)
			}
			if keep == "no" || t.Advertised == "yes" {
				t.Advertised = keep
			}
			t.Cites = append(t.Cites, cite(adv))
		}
		out = append(out, t)
	}
	return out
}

// filterTool runs the advertising filters for one tool, in order: the
// first whose test holds returns its value; none gives `otherwise`.
func filterTool(adv *findings.Record, refs map[string]Value, toolIDs map[string]string, funcs map[string]Function, def, id string, t *Tool) string {
	r := map[string]Value{}
	for k, v := range refs {
		r[k] = v
	}
	r["tool.id"] = known(ToolRef{Def: def, ID: toolIDs[def]})
	if def == "" {
		r["tool.id"] = known(id)
	}
	env := &Env{Refs: r, Locals: locals(adv), Functions: funcs, Tools: toolIDs}
	verdict := func(v Value, rule string) string {
		s := step(rule, v)
		t.Steps = append(t.Steps, s)
		return map[string]string{"true": "yes", "false": "no", "unknown": "depends"}[s.Outcome]
	}
	for _, f := range asList(adv.Facts["filters"]) {
		cond, keep := asExpr(f["cond"]), asExpr(f["keep"])
		if cond == nil || keep == nil {
			t.Steps = append(t.Steps, Step{Rule: fmt.Sprint(f["keep_when"]), Outcome: "unknown", Unknown: []string{"a filter has no structured condition; rebuild with a catalog that extracts it"}})
			return "depends"
		}
		v := Eval(cond, env)
		s := step(Source(cond), v)
		if s.Outcome == "false" {
			continue
		}
		t.Steps = append(t.Steps, s)
		if s.Outcome == "unknown" {
			return "depends"
		}
		return verdict(Eval(keep, env), "return "+Source(keep))
	}
	other := asExpr(adv.Facts["otherwise"])
	if other == nil {
		t.Steps = append(t.Steps, Step{Rule: "(no filter applies)", Outcome: "unknown", Unknown: []string{"the records do not say what the filter returns when no test holds"}})
		return "depends"
	}
	return verdict(Eval(other, env), "return "+Source(other))
}

// disabledMap reads the older form of advertising (until v1.0.115): a map
// of the tools turned off (`result["patch"] = false`), each entry either
// unconditional or under a condition (in that era, the agent's
// permissions: configuration read at run time). A tool the map does not
// name stays advertised. resolved says whether the records give the
// tool's id; without it the map cannot be matched.
func disabledMap(entries []Expr, id string, resolved bool, t *Tool) string {
	if !resolved {
		t.Steps = append(t.Steps, Step{Rule: "map of tools turned off", Outcome: "unknown", Unknown: []string{"the records do not give this tool's id, so the map cannot be matched"}})
		return "depends"
	}
	out := "yes"
	for _, e := range entries {
		if fmt.Sprint(e["tool"]) != id {
			continue
		}
		rule := fmt.Sprintf("result[%q] = false", id)
		var conds []string
		for _, c := range asAnyList(e["when"]) {
			conds = append(conds, fmt.Sprint(c))
		}
		if len(conds) == 0 {
			t.Steps = append(t.Steps, Step{Rule: rule, Outcome: "true"})
			return "no"
		}
		cond := strings.Join(conds, " && ")
		t.Steps = append(t.Steps, Step{Rule: "if (" + cond + ") " + rule, Outcome: "unknown", Unknown: []string{"cannot evaluate: " + cond + " (configuration read at run time)"}})
		out = "depends"
	}
	if out == "yes" {
		t.Steps = append(t.Steps, Step{Rule: "not in the map of tools turned off", Outcome: "true"})
	}
	return out
}

func locals(r *findings.Record) map[string]Expr {
	out := map[string]Expr{}
	for _, l := range asList(r.Facts["locals"]) {
		out[fmt.Sprint(l["name"])] = asExpr(l["value"])
	}
	return out
}

func asAnyList(v any) []any {
	l, _ := v.([]any)
	return l
}

func budget(rt *Route, cfg *Config, ix *records) ([]SectionTokens, *findings.Tokens) {
	total := &findings.Tokens{}
	add := func(t *findings.Tokens) {
		total.O200kBase += t.O200kBase
		total.Cl100kBase += t.Cl100kBase
	}
	var out []SectionTokens
	prompt := SectionTokens{Name: "provider prompt", Tokens: rt.Prompt.Tokens, Counted: rt.Prompt.Tokens != nil}
	if prompt.Counted {
		add(prompt.Tokens)
		rec := rt.Prompt.Cites[len(rt.Prompt.Cites)-1].Record
		rt.Counted = append(rt.Counted, Part{Record: rec, Label: "prompt " + path.Base(rt.Prompt.Path), Tokens: *prompt.Tokens})
	} else {
		prompt.Note = "not counted: no prompt file was chosen, or its record has no token count"
	}
	out = append(out, prompt)
	tools := SectionTokens{Name: "tool descriptions", Tokens: &findings.Tokens{}, Counted: true}
	var missing, depends []string
	for _, t := range rt.Tools {
		switch {
		case t.Advertised == "depends":
			depends = append(depends, t.ID)
		case t.Advertised != "yes":
		case t.Tokens == nil:
			missing = append(missing, t.ID)
		default:
			tools.Tokens.O200kBase += t.Tokens.O200kBase
			tools.Tokens.Cl100kBase += t.Tokens.Cl100kBase
			rt.Counted = append(rt.Counted, Part{Record: t.Description, Label: t.ID + " description", Tokens: *t.Tokens})
		}
	}
	var notes []string
	if len(missing) > 0 {
		notes = append(notes, "not counted (no description record): "+strings.Join(missing, ", "))
	}
	if len(depends) > 0 {
		notes = append(notes, "not counted (advertised only under run-time conditions): "+strings.Join(depends, ", "))
	}
	tools.Note = strings.Join(notes, "; ")
	add(tools.Tokens)
	out = append(out, tools)
	for _, s := range cfg.Sections {
		st := SectionTokens{Name: s.Name}
		for _, r := range append(ix.prefix(s.Definition), ix.one(s.Definition)) {
			if r != nil && r.Located() && r.Location.Tokens != nil {
				if st.Tokens == nil {
					st.Tokens = &findings.Tokens{}
				}
				st.Tokens.O200kBase += r.Location.Tokens.O200kBase
				st.Tokens.Cl100kBase += r.Location.Tokens.Cl100kBase
				rt.Counted = append(rt.Counted, Part{Record: r.ID, Label: s.Name, Tokens: *r.Location.Tokens})
			}
		}
		if st.Tokens == nil {
			st.Note = "not yet counted: the catalog has no records with token counts for it"
		} else {
			st.Counted = true
			add(st.Tokens)
		}
		out = append(out, st)
	}
	return out, total
}
