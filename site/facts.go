package site

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/keyfindings/keyfindings/findings"
)

// factTable is one table of a record's facts, for the templates to lay out.
// Rows hold the values themselves; the "cell" template function turns each
// into escaped Markdown.
type factTable struct {
	// Name is the fact the table shows; "" for the table of simple facts.
	Name    string
	Columns []string
	Rows    [][]any
}

// absent marks a cell whose row has no such key.
type absent struct{}

// factTables arranges facts (JSON values: strings, numbers, booleans, null,
// lists, objects) as tables: one "Fact | Value" table for the facts that fit
// in a cell, then one table per list of objects (a row per item, a column
// per key, numbered since order matters) and per object (a row per key).
func factTables(facts findings.Facts) []factTable {
	names := make([]string, 0, len(facts))
	for k := range facts {
		names = append(names, k)
	}
	sort.Strings(names)
	simple := factTable{Columns: []string{"Fact", "Value"}}
	var more []factTable
	for _, name := range names {
		switch v := facts[name].(type) {
		case []any:
			if cols, ok := objectColumns(v); ok {
				t := factTable{Name: name, Columns: append([]string{"#"}, cols...)}
				for i, item := range v {
					obj := item.(map[string]any)
					row := []any{float64(i + 1)}
					for _, c := range cols {
						if cv, ok := obj[c]; ok {
							row = append(row, cv)
						} else {
							row = append(row, absent{})
						}
					}
					t.Rows = append(t.Rows, row)
				}
				more = append(more, t)
				continue
			}
		case map[string]any:
			if len(v) > 0 {
				t := factTable{Name: name, Columns: []string{"Key", "Value"}}
				keys := slices.Sorted(maps.Keys(v))
				for _, k := range keys {
					t.Rows = append(t.Rows, []any{k, v[k]})
				}
				more = append(more, t)
				continue
			}
		}
		simple.Rows = append(simple.Rows, []any{name, facts[name]})
	}
	var out []factTable
	if len(simple.Rows) > 0 {
		out = append(out, simple)
	}
	return append(out, more...)
}

// objectColumns reports whether list is a non-empty list of objects, and the
// union of their keys, sorted.
func objectColumns(list []any) ([]string, bool) {
	if len(list) == 0 {
		return nil, false
	}
	seen := map[string]bool{}
	for _, item := range list {
		obj, ok := item.(map[string]any)
		if !ok {
			return nil, false
		}
		for k := range obj {
			seen[k] = true
		}
	}
	cols := make([]string, 0, len(seen))
	for k := range seen {
		cols = append(cols, k)
	}
	sort.Strings(cols)
	return cols, true
}

// factCell renders one JSON value as the Markdown of a table cell: strings
// as code spans, numbers and booleans as they are in JSON, lists joined by
// commas, objects as key: value pairs. Nothing in the value can end the cell
// or start markup.
func factCell(v any) string {
	switch v := v.(type) {
	case absent:
		return ""
	case nil:
		return "*null*"
	case string:
		if v == "" {
			return "*empty string*"
		}
		return tableCode(v)
	case float64:
		return formatNumber(v)
	case bool:
		if v {
			return "true"
		}
		return "false"
	case []any:
		if len(v) == 0 {
			return "*empty list*"
		}
		parts := make([]string, len(v))
		for i, item := range v {
			parts[i] = factCell(item)
			if _, nested := item.([]any); nested {
				parts[i] = `\[` + parts[i] + `\]`
			}
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		if len(v) == 0 {
			return "*empty object*"
		}
		keys := slices.Sorted(maps.Keys(v))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = mdText(k) + ": " + factCell(v[k])
		}
		return "\\{" + strings.Join(parts, "; ") + "\\}"
	}
	// Values decoded from JSON have no other types; anything else is shown
	// as text.
	return tableCode(strings.TrimSpace(fmt.Sprint(v)))
}

// wholeFileView is the size of a file that a record cites whole.
type wholeFileView struct {
	Bytes  int
	Lines  int
	SHA256 string
}

// wholeFile returns the size of the file a located record cites whole,
// else nil. Extraction gives a record whose span is a whole file (such as
// a prompt file) the facts "bytes" and "lines", the file's size; the span
// then runs from line 1 through that last line.
func wholeFile(rec *findings.Record) *wholeFileView {
	if rec == nil || !rec.Located() || rec.Location.Lines.Start != 1 {
		return nil
	}
	size, ok1 := rec.Facts["bytes"].(float64)
	lines, ok2 := rec.Facts["lines"].(float64)
	if !ok1 || !ok2 || int(lines) != rec.Location.Lines.End || size < 0 || size != float64(int(size)) {
		return nil
	}
	return &wholeFileView{Bytes: int(size), Lines: int(lines), SHA256: rec.Location.SHA256}
}
