package locate

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// exprTree turns a TypeScript expression into the small structured form
// of `value: expr` facts, so that a reader of the records (the route
// evaluator) can interpret a condition without parsing source text. Every
// node is an object with an "op":
//
//	{"op": "or"|"and", "args": [e…]}          a || b || c (chains flattened)
//	{"op": "not", "arg": e}                   !e
//	{"op": "==="|"!=="|"=="|"!=", "args": [l, r]}
//	{"op": "call", "method": m, "on": e, "args": [e…]}   e.m(…)
//	{"op": "call", "function": f, "args": [e…]}         f(…), f an identifier
//	{"op": "ref", "name": "model.api.id"}     an identifier or a dotted path of them
//	{"op": "string", "value": s}, {"op": "number", "value": n}, {"op": "bool", "value": b}
//	{"op": "array", "items": [e…]}, {"op": "object", "fields": {k: e…}}
//	{"op": "unknown", "text": source}         anything else, kept as written
//
// Parentheses are dropped. Unknown constructs keep their source text so a
// reader can say exactly what it could not evaluate.
func exprTree(n *sitter.Node, src []byte) map[string]any {
	switch n.Type() {
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return exprTree(n.NamedChild(0), src)
		}
	case "identifier", "this", "property_identifier", "shorthand_property_identifier":
		return map[string]any{"op": "ref", "name": n.Content(src)}
	case "member_expression":
		if dottedPath(n, src) {
			return map[string]any{"op": "ref", "name": n.Content(src)}
		}
	case "string", "template_string":
		if n.Type() == "string" || n.NamedChildCount() == 0 {
			return map[string]any{"op": "string", "value": literal(n, src)}
		}
	case "number", "true", "false":
		v := literal(n, src)
		if _, ok := v.(bool); ok {
			return map[string]any{"op": "bool", "value": v}
		}
		if _, ok := v.(string); !ok {
			return map[string]any{"op": "number", "value": v}
		}
	case "unary_expression":
		if op := n.ChildByFieldName("operator"); op != nil && op.Type() == "!" {
			return map[string]any{"op": "not", "arg": exprTree(n.ChildByFieldName("argument"), src)}
		}
	case "binary_expression":
		if t := binaryExpr(n, src); t != nil {
			return t
		}
	case "call_expression":
		if t := callExpr(n, src); t != nil {
			return t
		}
	case "array":
		items := []any{}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			if c.Type() == "comment" {
				continue
			}
			items = append(items, exprTree(c, src))
		}
		return map[string]any{"op": "array", "items": items}
	case "object":
		if t := objectExpr(n, src); t != nil {
			return t
		}
	}
	return map[string]any{"op": "unknown", "text": n.Content(src)}
}

// dottedPath reports whether n is a chain of plain property accesses on
// an identifier (a.b.c), with no calls, indexing or optional chaining.
func dottedPath(n *sitter.Node, src []byte) bool {
	for n.Type() == "member_expression" {
		p := n.ChildByFieldName("property")
		if p == nil || p.Type() != "property_identifier" || n.ChildByFieldName("optional_chain") != nil {
			return false
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			if n.Child(i).Type() == "optional_chain" || n.Child(i).Type() == "?." {
				return false
			}
		}
		n = n.ChildByFieldName("object")
	}
	return n.Type() == "identifier" || n.Type() == "this"
}

func binaryExpr(n *sitter.Node, src []byte) map[string]any {
	opNode := n.ChildByFieldName("operator")
	if opNode == nil {
		return nil
	}
	l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	switch op := opNode.Type(); op {
	case "||", "&&":
		name := map[string]string{"||": "or", "&&": "and"}[op]
		var args []any
		for _, side := range []*sitter.Node{l, r} {
			t := exprTree(side, src)
			if t["op"] == name && !isParenthesized(side) {
				args = append(args, t["args"].([]any)...)
				continue
			}
			args = append(args, t)
		}
		return map[string]any{"op": name, "args": args}
	case "===", "!==", "==", "!=":
		return map[string]any{"op": op, "args": []any{exprTree(l, src), exprTree(r, src)}}
	}
	return nil
}

func isParenthesized(n *sitter.Node) bool { return n.Type() == "parenthesized_expression" }

func callExpr(n *sitter.Node, src []byte) map[string]any {
	fn, argsNode := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if fn == nil || argsNode == nil || argsNode.Type() != "arguments" {
		return nil
	}
	args := []any{}
	for i := 0; i < int(argsNode.NamedChildCount()); i++ {
		c := argsNode.NamedChild(i)
		if c.Type() == "comment" {
			continue
		}
		args = append(args, exprTree(c, src))
	}
	switch fn.Type() {
	case "identifier":
		return map[string]any{"op": "call", "function": fn.Content(src), "args": args}
	case "member_expression":
		p, obj := fn.ChildByFieldName("property"), fn.ChildByFieldName("object")
		if p == nil || obj == nil || p.Type() != "property_identifier" {
			return nil
		}
		return map[string]any{"op": "call", "method": p.Content(src), "on": exprTree(obj, src), "args": args}
	}
	return nil
}

func objectExpr(n *sitter.Node, src []byte) map[string]any {
	fields := map[string]any{}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "comment":
		case "pair":
			k, v := c.ChildByFieldName("key"), c.ChildByFieldName("value")
			if k == nil || v == nil || (k.Type() != "property_identifier" && k.Type() != "string") {
				return nil
			}
			fields[unquote(k.Content(src))] = exprTree(v, src)
		case "shorthand_property_identifier":
			fields[c.Content(src)] = map[string]any{"op": "ref", "name": c.Content(src)}
		default:
			return nil
		}
	}
	return map[string]any{"op": "object", "fields": fields}
}
