package site

import (
	"regexp"
	"strings"
	"testing"
)

// TestToolResultsTable renders testdata/site/toolresults.json and reads
// the summary table at the top of tools.html: one row per located
// tool-result record of the page (not a record with only a `tool` fact,
// nor one that is not located or on another page), ordered by tool, the
// default loop first, then packages/core (the `/v2` runner only), then
// packages/llm (also the native runtime), with — for a missing fact, long values cut, and
// every value escaped.
func TestToolResultsTable(t *testing.T) {
	files, err := RenderWith(readFixture(t, "toolresults.json"), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	page := string(files["tools.html"])
	table := section(page, "tool-results-summary")
	if table == "" {
		t.Fatalf("tools.html has no summary table:\n%s", page)
	}
	if i, j := strings.Index(page, `id="tool-results-summary"`), strings.Index(page, `id="what-the-model-sees-of-tool-results"`); i < 0 || j < 0 || i > j {
		t.Errorf("the summary table is not above the page's sections (at %d, section at %d)", i, j)
	}
	want := [][]string{
		{`<a href="#result-glob"><code>glob</code></a>`, "default loop",
			"<code>No files found</code> · <code>a</code> · <code>b</code> · <em>and 2 more</em>",
			"<code>glob path must be a directory: ${search}</code>",
			"<code>(Results are `truncated`)</code>"},
		{`<a href="#result-glob-core"><code>glob</code></a>`, "<code>/v2</code> runner",
			"<code>No files found</code>", "—",
			"<code>(Results are truncated: " + strings.Repeat("x", 76) + "…</code>"},
		{`<a href="#result-glob-llm"><code>glob</code></a>`, "<code>/v2</code> runner, native runtime",
			"<code>No files found</code>", "—", "—"},
		{`<a href="#result-todo"><code>todowrite</code>, <code>todoread</code></a>`, "default loop",
			"<code>JSON.stringify(todos, null, 2)</code>", "—", "—"},
		{`<a href="#result-zeta"><code>zeta](#x)|y</code></a>`, "default loop",
			"<code>&lt;script&gt;alert(1)&lt;/script&gt; | done</code>", "—", "—"},
	}
	got := tableRows(table)
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(got), len(want), table)
	}
	for i := range want {
		if strings.Join(got[i], " ‖ ") != strings.Join(want[i], " ‖ ") {
			t.Errorf("row %d:\n got %q\nwant %q", i+1, got[i], want[i])
		}
	}
	if strings.Contains(page, "<script>") {
		t.Error("tools.html holds a raw <script> element")
	}
	for name, data := range files {
		if name != "tools.html" && strings.Contains(string(data), "tool-results-summary") {
			t.Errorf("%s has the summary table; only the page of its records should", name)
		}
	}
}

// TestToolResultsTableAbsent: a page without tool-result records has no
// summary table.
func TestToolResultsTableAbsent(t *testing.T) {
	files, err := RenderWith(readFixture(t, "findings.json"), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if strings.Contains(string(data), "tool-results-summary") {
			t.Errorf("%s has a summary table without tool-result records", name)
		}
	}
}

var (
	rowPattern  = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	cellPattern = regexp.MustCompile(`(?s)<td>(.*?)</td>`)
)

// tableRows returns the cells of the body rows of the first table in html.
func tableRows(html string) [][]string {
	start := strings.Index(html, "<tbody>")
	end := strings.Index(html, "</tbody>")
	if start < 0 || end < start {
		return nil
	}
	var rows [][]string
	for _, m := range rowPattern.FindAllStringSubmatch(html[start:end], -1) {
		var cells []string
		for _, c := range cellPattern.FindAllStringSubmatch(m[1], -1) {
			cells = append(cells, strings.TrimSpace(c[1]))
		}
		rows = append(rows, cells)
	}
	return rows
}
