package site

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/keyfindings/keyfindings/findings"
)

// The facts a tool-result record gives for the summary table (see
// findings/defs: `tool` is the tool's id as advertised, the others what the
// model reads back).
const (
	factTool         = "tool"
	factOnSuccess    = "on_success"
	factOnError      = "on_error"
	factOnTruncation = "on_truncation"
)

// The paths that run a tool, as the summary table names them.
const (
	runsDefaultLoop = "default loop"
	runsV2          = "`/v2` runner"
	runsV2Native    = "`/v2` runner, native runtime"
)

// Limits of the summary table's short rendering of a fact value.
const (
	summaryRunes = 100
	summaryItems = 3
)

// toolResultRow is one row of the tools-page summary table. The cells are
// Markdown, escaped: the template writes them as they are.
type toolResultRow struct {
	// Record is the row's record, for the link to its entry.
	Record *findings.Record
	// Tool is the record's `tool` fact.
	Tool string
	// Runs names the path that runs the cited code.
	Runs string
	// OnSuccess, OnError and OnTruncation render the facts of those
	// names; "—" where the record has none.
	OnSuccess, OnError, OnTruncation string
}

// toolsPage is the page that carries the summary table.
const toolsPage = "tools"

// toolResults returns the summary rows of the tools page (nil for any
// other page): one per located record of the page with a `tool` fact and at least one of `on_success`, `on_error` and
// `on_truncation` (a record with only `tool`, such as a tool description,
// is not a tool result). Rows are ordered by tool id, the default loop's
// record before the others of the same tool, then by record id.
func toolResults(p *pageView) []toolResultRow {
	if p == nil || p.Name != toolsPage {
		return nil
	}
	var rows []toolResultRow
	for _, rec := range p.Findings {
		tool, ok := rec.Facts[factTool]
		if !ok || !rec.Located() {
			continue
		}
		row := toolResultRow{
			Record:       rec,
			Tool:         factCell(tool),
			Runs:         runsIn(rec),
			OnSuccess:    summaryCell(rec.Facts, factOnSuccess),
			OnError:      summaryCell(rec.Facts, factOnError),
			OnTruncation: summaryCell(rec.Facts, factOnTruncation),
		}
		if row.OnSuccess == "—" && row.OnError == "—" && row.OnTruncation == "—" {
			continue
		}
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b toolResultRow) int {
		return cmp.Or(
			cmp.Compare(toolKey(a.Record), toolKey(b.Record)),
			cmp.Compare(runsOrder(a.Runs), runsOrder(b.Runs)),
			cmp.Compare(a.Record.ID, b.Record.ID),
		)
	})
	return rows
}

// toolKey is the text a row sorts by: the tool id, or the first of a list.
func toolKey(rec *findings.Record) string {
	switch v := rec.Facts[factTool].(type) {
	case string:
		return v
	case []any:
		if len(v) > 0 {
			if s, ok := v[0].(string); ok {
				return s
			}
		}
	}
	return ""
}

// runsIn names the path that runs a record's code, from the file it cites:
// packages/core (its tools) runs only in the `/v2` runner; packages/llm
// runs in the `/v2` runner and in the native runtime behind
// `experimentalNativeLlm`, which still runs the tools of packages/opencode;
// packages/opencode is the default session loop (CLI, TUI and app). Any
// other path gives "—".
func runsIn(rec *findings.Record) string {
	path := ""
	if rec.Location != nil {
		path = rec.Location.Path
	}
	switch {
	case strings.HasPrefix(path, "packages/core/"):
		return runsV2
	case strings.HasPrefix(path, "packages/llm/"):
		return runsV2Native
	case strings.HasPrefix(path, "packages/opencode/"):
		return runsDefaultLoop
	}
	return "—"
}

func runsOrder(runs string) int {
	switch runs {
	case runsDefaultLoop:
		return 0
	case runsV2:
		return 1
	case runsV2Native:
		return 2
	}
	return 3
}

// summaryCell renders the fact name of facts for the summary table: as
// factCell does, with each string cut to summaryRunes characters and a
// list to its first summaryItems items and a count of the rest; "—" when
// the fact is absent, null or empty.
func summaryCell(facts findings.Facts, name string) string {
	v, ok := facts[name]
	if !ok || v == nil || v == "" {
		return "—"
	}
	if list, ok := v.([]any); ok {
		if len(list) == 0 {
			return "—"
		}
		parts := make([]string, 0, summaryItems+1)
		for _, item := range list[:min(len(list), summaryItems)] {
			parts = append(parts, factCell(shorten(item)))
		}
		if rest := len(list) - summaryItems; rest > 0 {
			parts = append(parts, "*and "+strconv.Itoa(rest)+" more*")
		}
		return strings.Join(parts, " · ")
	}
	return factCell(shorten(v))
}

// shorten returns v with every string in it cut to summaryRunes
// characters (an ellipsis marks the cut), so the escaping of factCell
// applies to what is shown.
func shorten(v any) any {
	switch v := v.(type) {
	case string:
		return truncate(v, summaryRunes)
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = shorten(item)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, item := range v {
			out[k] = shorten(item)
		}
		return out
	}
	return v
}

// toolResultsID is the anchor of the summary table's heading.
const toolResultsID = "tool-results-summary"
