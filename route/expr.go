// Package route evaluates the extracted routing and tool rules of one
// findings.json for one model id and provider id: which prompt file the
// model gets, which tools are advertised to it, and their token counts.
// It reads only records (facts in, decision out) and interprets the small
// expression language of `value: expr` facts; where a rule reads something
// only known at run time, or uses a construct the language lacks, the
// decision says so instead of guessing.
package route

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Expr is one node of a `value: expr` fact, as decoded from JSON.
type Expr = map[string]any

// Value is the result of evaluating an expression: a known value, or
// unknown with the reasons.
type Value struct {
	// Known is false when the value depends on something the records do
	// not give.
	Known bool
	// V is a string, float64, bool, []Value, map[string]Value or ToolRef.
	V any
	// Unknown lists, for an unknown value, the names read at run time (or
	// defined outside the cited code) and the constructs that cannot be
	// evaluated ("cannot evaluate: <expression>").
	Unknown []string
}

// ToolRef is the id of a tool definition (`EditTool.id`, `tool.id`): the
// definition's constant and, when a record gives it, its id.
type ToolRef struct {
	Def string
	ID  string
}

func known(v any) Value { return Value{Known: true, V: v} }

func unknown(reasons ...string) Value { return Value{Unknown: dedupe(reasons)} }

func dedupe(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Function is a function whose body is one return (a `functions` fact).
type Function struct {
	Params  []string
	Returns Expr
}

// Env binds the names an expression reads.
type Env struct {
	// Refs are names with known (or known-unknown) values.
	Refs map[string]Value
	// Locals are named expressions, evaluated when read.
	Locals map[string]Expr
	// Functions can be called by name.
	Functions map[string]Function
	// Tools maps a definition constant (EditTool) to its id ("" when no
	// record gives it), so that `EditTool.id` is a ToolRef.
	Tools map[string]string
	depth int
}

func (e *Env) child(refs map[string]Value) *Env {
	c := &Env{Refs: map[string]Value{}, Locals: map[string]Expr{}, Functions: e.Functions, Tools: e.Tools, depth: e.depth + 1}
	for k, v := range refs {
		c.Refs[k] = v
	}
	return c
}

// Eval evaluates x in env.
func Eval(x Expr, env *Env) Value {
	if env.depth > 32 {
		return unknown("cannot evaluate: " + Source(x) + " (nested too deep)")
	}
	switch op, _ := x["op"].(string); op {
	case "string", "number", "bool":
		return known(x["value"])
	case "ref":
		name, _ := x["name"].(string)
		return env.lookup(name)
	case "not":
		v := Eval(asExpr(x["arg"]), env)
		if !v.Known {
			return v
		}
		b, ok := v.V.(bool)
		if !ok {
			return unknown("cannot evaluate: " + Source(x) + " (not a boolean)")
		}
		return known(!b)
	case "or", "and":
		return logic(op, asList(x["args"]), env, x)
	case "===", "!==", "==", "!=":
		args := asList(x["args"])
		if len(args) != 2 {
			break
		}
		return compare(op, Eval(args[0], env), Eval(args[1], env), x)
	case "call":
		return call(x, env)
	case "array":
		var items []Value
		for _, it := range asList(x["items"]) {
			items = append(items, Eval(it, env))
		}
		return known(items)
	case "object":
		fields := map[string]Value{}
		m, _ := x["fields"].(map[string]any)
		for k, v := range m {
			fields[k] = Eval(asExpr(v), env)
		}
		return known(fields)
	}
	return unknown("cannot evaluate: " + Source(x))
}

func (e *Env) lookup(name string) Value {
	if v, ok := e.Refs[name]; ok {
		return v
	}
	if x, ok := e.Locals[name]; ok {
		c := e.child(e.Refs)
		c.Locals = e.Locals
		return Eval(x, c)
	}
	if def, ok := strings.CutSuffix(name, ".id"); ok {
		if id, ok := e.Tools[def]; ok {
			return known(ToolRef{Def: def, ID: id})
		}
	}
	// A path into a bound object: flags.exa with flags = {exa: …}.
	if i := strings.LastIndex(name, "."); i > 0 {
		base := e.lookup(name[:i])
		if m, ok := base.V.(map[string]Value); ok && base.Known {
			if v, ok := m[name[i+1:]]; ok {
				return v
			}
		}
	}
	return unknown(name + " (set at run time or defined outside the cited code)")
}

func logic(op string, args []Expr, env *Env, x Expr) Value {
	var reasons []string
	for _, a := range args {
		v := Eval(a, env)
		if !v.Known {
			reasons = append(reasons, v.Unknown...)
			continue
		}
		b, ok := v.V.(bool)
		if !ok {
			// JavaScript truthiness of other values is not modelled.
			return unknown("cannot evaluate: " + Source(x) + " (an operand is not a boolean)")
		}
		if b == (op == "or") {
			return known(b)
		}
	}
	if len(reasons) > 0 {
		return unknown(reasons...)
	}
	return known(op == "and")
}

func compare(op string, a, b Value, x Expr) Value {
	if !a.Known || !b.Known {
		return unknown(append(append([]string{}, a.Unknown...), b.Unknown...)...)
	}
	eq, ok := equal(a.V, b.V)
	if !ok {
		return unknown("cannot evaluate: " + Source(x))
	}
	if op == "!==" || op == "!=" {
		eq = !eq
	}
	return known(eq)
}

// equal compares two known values; ok is false when the language cannot
// tell. Two tool refs are the same tool when they name the same
// definition; two definitions with known ids compare by id, and
// different definitions are different tools (the registry holds each
// definition once, under its own id).
func equal(a, b any) (eq, ok bool) {
	ta, aTool := a.(ToolRef)
	tb, bTool := b.(ToolRef)
	switch {
	case aTool && bTool:
		if ta.Def == tb.Def {
			return true, true
		}
		if ta.ID != "" && tb.ID != "" {
			return ta.ID == tb.ID, true
		}
		return false, true
	case aTool || bTool:
		t, other := ta, b
		if bTool {
			t, other = tb, a
		}
		s, isStr := other.(string)
		if !isStr || t.ID == "" {
			return false, false
		}
		return t.ID == s, true
	}
	switch av := a.(type) {
	case string:
		bv, ok := b.(string)
		return ok && av == bv, ok
	case bool:
		bv, ok := b.(bool)
		return ok && av == bv, ok
	case float64:
		bv, ok := b.(float64)
		return ok && av == bv, ok
	}
	return false, false
}

func call(x Expr, env *Env) Value {
	var args []Value
	for _, a := range asList(x["args"]) {
		args = append(args, Eval(a, env))
	}
	if name, ok := x["function"].(string); ok {
		fn, ok := env.Functions[name]
		if !ok || len(args) > len(fn.Params) {
			return unknown("cannot evaluate: " + Source(x))
		}
		refs := map[string]Value{}
		for i, p := range fn.Params {
			if i < len(args) {
				refs[p] = args[i]
			} else {
				refs[p] = unknown("cannot evaluate: " + Source(x) + " (parameter " + p + " not passed)")
			}
		}
		return Eval(fn.Returns, env.child(refs))
	}
	method, _ := x["method"].(string)
	on := Eval(asExpr(x["on"]), env)
	if !on.Known {
		return on
	}
	for _, a := range args {
		if !a.Known {
			return a
		}
	}
	s, isStr := on.V.(string)
	switch {
	case isStr && (method == "toLowerCase" || method == "toUpperCase") && len(args) == 0:
		if method == "toLowerCase" {
			return known(strings.ToLower(s))
		}
		return known(strings.ToUpper(s))
	case isStr && len(args) == 1 && (method == "includes" || method == "startsWith" || method == "endsWith"):
		sub, ok := args[0].V.(string)
		if !ok {
			break
		}
		f := map[string]func(string, string) bool{"includes": strings.Contains, "startsWith": strings.HasPrefix, "endsWith": strings.HasSuffix}[method]
		return known(f(s, sub))
	case method == "includes" && len(args) == 1:
		items, ok := on.V.([]Value)
		if !ok {
			break
		}
		var reasons []string
		for _, it := range items {
			if !it.Known {
				reasons = append(reasons, it.Unknown...)
				continue
			}
			if eq, ok := equal(it.V, args[0].V); ok && eq {
				return known(true)
			}
		}
		if len(reasons) > 0 {
			return unknown(reasons...)
		}
		return known(false)
	}
	return unknown("cannot evaluate: " + Source(x))
}

func asExpr(v any) Expr {
	m, _ := v.(map[string]any)
	return m
}

func asList(v any) []Expr {
	l, _ := v.([]any)
	out := make([]Expr, 0, len(l))
	for _, it := range l {
		out = append(out, asExpr(it))
	}
	return out
}

// Source renders an expression back as TypeScript-like source, for output.
func Source(x Expr) string {
	switch op, _ := x["op"].(string); op {
	case "string":
		return strconv.Quote(fmt.Sprint(x["value"]))
	case "number", "bool":
		return fmt.Sprint(x["value"])
	case "ref":
		return fmt.Sprint(x["name"])
	case "not":
		return "!" + paren(asExpr(x["arg"]))
	case "or", "and":
		sep := map[string]string{"or": " || ", "and": " && "}[op]
		var parts []string
		for _, a := range asList(x["args"]) {
			parts = append(parts, paren(a))
		}
		return strings.Join(parts, sep)
	case "===", "!==", "==", "!=":
		args := asList(x["args"])
		if len(args) == 2 {
			return paren(args[0]) + " " + op + " " + paren(args[1])
		}
	case "call":
		var args []string
		for _, a := range asList(x["args"]) {
			args = append(args, Source(a))
		}
		if f, ok := x["function"].(string); ok {
			return f + "(" + strings.Join(args, ", ") + ")"
		}
		return paren(asExpr(x["on"])) + "." + fmt.Sprint(x["method"]) + "(" + strings.Join(args, ", ") + ")"
	case "array":
		var items []string
		for _, a := range asList(x["items"]) {
			items = append(items, Source(a))
		}
		return "[" + strings.Join(items, ", ") + "]"
	case "object":
		m, _ := x["fields"].(map[string]any)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, k+": "+Source(asExpr(m[k])))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	case "unknown":
		return fmt.Sprint(x["text"])
	}
	return "<malformed expression>"
}

// paren wraps compound expressions so that Text keeps their grouping.
func paren(x Expr) string {
	switch x["op"] {
	case "or", "and", "===", "!==", "==", "!=":
		return "(" + Source(x) + ")"
	}
	return Source(x)
}
