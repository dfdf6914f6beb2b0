package diff

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/recordtest"
)

func withTokens(r *findings.Record, o200k, cl100k int) *findings.Record {
	r.Location.Tokens = &findings.Tokens{O200kBase: o200k, Cl100kBase: cl100k}
	return r
}

// TestDiffTokens checks the token change of records whose excerpt the
// model reads: the delta on a changed record, the whole count on an added
// or removed one, none where the bytes are the same or there are no
// counts; and that text, Markdown and JSON show it.
func TestDiffTokens(t *testing.T) {
	const a, b = "You are a helper.\n", "You are a careful helper.\nThink first.\n"
	d := Compare(
		recordtest.Doc(withTokens(recordtest.Located("p", "p.txt", 1, a, nil), 1200, 1190), withTokens(recordtest.Located("same", "s.txt", 1, a, nil), 5, 5), withTokens(recordtest.Located("gone", "g.txt", 1, a, nil), 40, 41), recordtest.Located("code", "x.ts", 1, a, nil)),
		recordtest.Doc(withTokens(recordtest.Located("p", "p.txt", 1, b, nil), 1512, 1488), withTokens(recordtest.Located("same", "s.txt", 4, a, nil), 5, 5), withTokens(recordtest.Located("new", "n.txt", 1, b, nil), 7, 8), recordtest.Located("code", "x.ts", 1, b, nil)),
	)
	want := map[string]string{
		"p":    "+312 o200k_base tokens (1200 → 1512); +298 cl100k_base (1190 → 1488)",
		"same": "", // moved: the same bytes
		"gone": "-40 o200k_base tokens (40 → none); -41 cl100k_base (41 → none)",
		"new":  "+7 o200k_base tokens (none → 7); +8 cl100k_base (none → 8)",
		"code": "", // no counts
	}
	for _, f := range d.Findings {
		got := ""
		if f.Tokens != nil {
			got = f.Tokens.Text()
		}
		if got != want[f.ID] {
			t.Errorf("%s (%s): tokens %q, want %q", f.ID, f.Status, got, want[f.ID])
		}
	}
	var text, md bytes.Buffer
	if err := d.WriteText(&text, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteMarkdown(&md, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "    "+want["p"]+"\n") {
		t.Errorf("text report lacks the token change:\n%s", text.String())
	}
	if !strings.Contains(md.String(), "Tokens: +312 o200k\\_base tokens (1200 → 1512)") {
		t.Errorf("Markdown report lacks the token change:\n%s", md.String())
	}
	data, err := d.MarshalIndent(ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Findings []struct {
			ID     string
			Tokens *TokenChange
		}
	}
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	for _, f := range out.Findings {
		if (f.Tokens != nil) != (want[f.ID] != "") || (f.ID == "p" && f.Tokens.O200kBase != 312) {
			t.Errorf("JSON %s: tokens %+v", f.ID, f.Tokens)
		}
	}
}

// TestDiffRouteReports checks that the reports list the route changes
// set on a diff, and with only what differs, only the routes that do.
func TestDiffRouteReports(t *testing.T) {
	d := Compare(recordtest.Doc(recordtest.Located("a", "a.txt", 1, "x\n", nil)), recordtest.Doc(recordtest.Located("a", "a.txt", 1, "y\n", nil)))
	o, n := 300, 612
	d.Routes = []*RouteChange{
		{Model: "gpt-5", Provider: "openai", Old: &findings.Tokens{O200kBase: 1234}, New: &findings.Tokens{O200kBase: 1546}, O200kBase: 312,
			Parts: []RoutePart{{Record: "tool-descriptions-bash-txt", Label: "bash description", Old: &o, New: &n, Change: PartRewritten}}},
		{Model: "o3", Provider: "openai", Old: &findings.Tokens{O200kBase: 99}, New: &findings.Tokens{O200kBase: 99}},
	}
	const line = "gpt-5 (openai): +312 o200k_base tokens (1234 → 1546); bash description rewritten (+312)"
	var text bytes.Buffer
	if err := d.WriteText(&text, ReportOptions{Changed: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "  "+line+"\n") || strings.Contains(text.String(), "o3") {
		t.Errorf("text report with --changed: want the gpt-5 route alone:\n%s", text.String())
	}
	var md bytes.Buffer
	if err := d.WriteMarkdown(&md, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| `gpt-5` (openai) | +312 o200k\\_base tokens (1234 → 1546) | bash description rewritten (+312, `tool-descriptions-bash-txt`) |", "| `o3` (openai) | ±0 o200k\\_base tokens (99 → 99) | — |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
	data, _ := d.MarshalIndent(ReportOptions{Changed: true})
	if !strings.Contains(string(data), `"routes": [`) || strings.Contains(string(data), `"model": "o3"`) {
		t.Errorf("JSON with --changed: want the gpt-5 route alone:\n%s", data)
	}
}
