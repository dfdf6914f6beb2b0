package diff

import (
	"github.com/keyfindings/keyfindings/cite"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/mdtext"

	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Schema is the schema value of a diff in JSON.
const Schema = "keyfindings/diff/v1"

// ReportOptions choose what a diff report shows.
type ReportOptions struct {
	// Changed shows only the findings that differ (FindingDiff.Differs);
	// the summary still counts them all.
	Changed bool
}

// shown returns the findings a report lists.
func (d *Diff) shown(opts ReportOptions) []*FindingDiff { return differing(d.Findings, opts) }

// differing returns items, or with opts.Changed those that differ.
func differing[T interface{ Differs() bool }](items []T, opts ReportOptions) []T {
	if !opts.Changed {
		return items
	}
	var out []T
	for _, it := range items {
		if it.Differs() {
			out = append(out, it)
		}
	}
	return out
}

// nothingChanged is the one line a report of only what differs prints
// when nothing does: then every finding is unchanged or missing on both
// sides for the same reason.
func (d *Diff) nothingChanged() string {
	n := d.Counts()
	s := fmt.Sprintf("nothing changed between %s and %s: %d unchanged", findings.SourceLabel(d.Old.Source), findings.SourceLabel(d.New.Source), n[Unchanged])
	if n[Missing] > 0 {
		s += fmt.Sprintf(", %d missing in both", n[Missing])
	}
	return s
}

// Summary counts the statuses that occur, in summary order, as in
// "2 unchanged, 1 moved".
func (d *Diff) Summary() string {
	counts := d.Counts()
	var parts []string
	for _, s := range Statuses {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	if len(parts) == 0 {
		return "no findings"
	}
	return strings.Join(parts, ", ")
}

// where describes a finding's location change: "path L1–9 → L3–11".
func (f *FindingDiff) where() string {
	loc := func(r *findings.Record) string {
		if r == nil || !r.Located() {
			return ""
		}
		return fmt.Sprintf("%s L%d–%d", r.Location.Path, r.Location.Lines.Start, r.Location.Lines.End)
	}
	o, n := loc(f.Old), loc(f.New)
	switch {
	case o == "" && n == "":
		return ""
	case o == "":
		return n
	case n == "":
		return o
	case o == n:
		return o
	case f.Old.Location.Path == f.New.Location.Path:
		return fmt.Sprintf("%s → L%d–%d", o, f.New.Location.Lines.Start, f.New.Location.Lines.End)
	}
	return o + " → " + n
}

// WriteText writes the diff for a terminal: one line per finding, the
// excerpt diff and fact changes under changed ones, and a summary. With
// opts.Changed and nothing differing, it writes one line saying so.
func (d *Diff) WriteText(w io.Writer, opts ReportOptions) error {
	shown := d.shown(opts)
	if opts.Changed && len(shown) == 0 {
		_, err := io.WriteString(w, d.nothingChanged()+"\n")
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "keyfindings diff %s → %s\n", findings.SourceLabel(d.Old.Source), findings.SourceLabel(d.New.Source))
	for _, f := range shown {
		line := fmt.Sprintf("%-9s  %s", f.Status, f.ID)
		if wh := f.where(); wh != "" {
			line += "  " + wh
		}
		if f.Status == Removed && f.Old != nil && !f.Old.Located() {
			line += "  (was " + string(f.Old.Status) + ")"
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
		if f.Note != "" {
			b.WriteString("    " + f.Note + "\n")
		}
		if f.Tokens != nil {
			b.WriteString("    " + f.Tokens.Text() + "\n")
		}
		if len(f.Hunks) > 0 {
			fmt.Fprintf(&b, "    --- a/%s\n    +++ b/%s\n", f.Old.Location.Path, f.New.Location.Path)
			for _, h := range f.Hunks {
				b.WriteString("    " + h.Header() + "\n")
				for _, l := range h.Lines {
					b.WriteString("    " + l + "\n")
				}
			}
		}
		for _, l := range FactLines(f.Facts) {
			b.WriteString("    " + l + "\n")
		}
	}
	if routes := d.shownRoutes(opts); len(routes) > 0 {
		b.WriteString("routes (o200k_base tokens of the counted sections; see keyfindings route):\n")
		for _, r := range routes {
			b.WriteString("  " + r.Text() + "\n")
		}
	}
	b.WriteString(d.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// FactLines renders fact changes for a terminal, one line each: a list
// fact as "fact NAME:" followed by its items, each indented and marked
// ' ', '-' or '+' (a list added or dropped whole shows every item as
// added or removed); any other fact as "fact NAME: OLD → NEW".
func FactLines(changes []FactChange) []string {
	var out []string
	for _, fc := range changes {
		items := fc.listItems()
		if items == nil {
			out = append(out, fmt.Sprintf("fact %s: %s → %s", fc.Name, findings.CompactJSON(fc.Old), findings.CompactJSON(fc.New)))
			continue
		}
		out = append(out, fmt.Sprintf("fact %s:", fc.Name))
		for _, it := range items {
			out = append(out, "  "+it[:1]+" "+it[1:])
		}
	}
	return out
}

// listItems is Items, or for a list on one side only (absent on the
// other) its items, all added or all removed; nil for other facts.
func (fc FactChange) listItems() []string {
	if fc.Items != nil {
		return fc.Items
	}
	ol, oIsList := fc.Old.([]any)
	nl, nIsList := fc.New.([]any)
	switch {
	case oIsList && fc.New == nil, nIsList && fc.Old == nil:
		if items := itemDiff(ol, nl); len(items) > 0 {
			return items
		}
	}
	return nil
}

// WriteMarkdown writes the diff as GitHub-flavoured Markdown for a pull
// request comment: a summary table, then a section per finding that is
// not unchanged, with both citations, the excerpt diff and the facts.
// With opts.Changed the table lists only the findings that differ, and
// when none does the report is one line saying so.
func (d *Diff) WriteMarkdown(w io.Writer, opts ReportOptions) error {
	shown := d.shown(opts)
	if opts.Changed && len(shown) == 0 {
		_, err := io.WriteString(w, mdtext.Text(mdtext.Capitalize(d.nothingChanged()))+".\n")
		return err
	}
	var blocks []string
	add := func(s string) { blocks = append(blocks, strings.TrimRight(s, "\n")) }
	add(fmt.Sprintf("### Key findings: %s → %s", mdSource(d.Old), mdSource(d.New)))
	add(mdtext.Text(d.Summary()) + ".")
	var table strings.Builder
	table.WriteString("| Finding | Status | Where |\n| --- | --- | --- |\n")
	for _, f := range shown {
		fmt.Fprintf(&table, "| %s %s | %s | %s |\n", cell(mdtext.CodeSpan(f.ID)), cell(mdtext.OneLine(f.Title)), f.Status, cell(mdWhere(f)))
	}
	add(table.String())
	if routes := d.shownRoutes(opts); len(routes) > 0 {
		add(mdRoutes(routes))
	}
	for _, f := range shown {
		if f.Status == Unchanged {
			continue
		}
		add(fmt.Sprintf("#### %s: %s", mdtext.CodeSpan(f.ID), f.Status))
		if f.Title != "" {
			add(mdtext.OneLine(f.Title))
		}
		if f.Note != "" {
			add(mdtext.Text(mdtext.Capitalize(f.Note)) + ".")
		}
		if f.Tokens != nil {
			add("Tokens: " + mdtext.Text(f.Tokens.Text()) + ".")
		}
		var cites []string
		if c := mdCite(d.Old, f.Old); c != "" {
			cites = append(cites, "- Old: "+c)
		}
		if c := mdCite(d.New, f.New); c != "" {
			cites = append(cites, "- New: "+c)
		}
		if len(cites) > 0 {
			add(strings.Join(cites, "\n"))
		}
		if len(f.Hunks) > 0 {
			var body strings.Builder
			fmt.Fprintf(&body, "--- a/%s\n+++ b/%s\n", mdtext.Visible(f.Old.Location.Path), mdtext.Visible(f.New.Location.Path))
			for _, h := range f.Hunks {
				body.WriteString(h.Header() + "\n")
				for _, l := range h.Lines {
					body.WriteString(l + "\n")
				}
			}
			add(mdtext.Fence("diff", body.String()) + "\n")
		}
		var facts strings.Builder
		for _, fc := range f.Facts {
			if fc.listItems() == nil {
				fmt.Fprintf(&facts, "| %s | %s | %s |\n", cell(mdtext.CodeSpan(fc.Name)), cell(mdtext.CodeSpan(findings.CompactJSON(fc.Old))), cell(mdtext.CodeSpan(findings.CompactJSON(fc.New))))
			}
		}
		if facts.Len() > 0 {
			add("| Fact | Old | New |\n| --- | --- | --- |\n" + facts.String())
		}
		for _, fc := range f.Facts {
			items := fc.listItems()
			if items == nil {
				continue
			}
			add(fmt.Sprintf("Fact %s:", mdtext.CodeSpan(fc.Name)))
			var body strings.Builder
			for _, it := range items {
				body.WriteString(it[:1] + " " + it[1:] + "\n")
			}
			add(mdtext.Fence("diff", body.String()) + "\n")
		}
	}
	_, err := io.WriteString(w, strings.Join(blocks, "\n\n")+"\n")
	return err
}

// mdRoutes is the table of route totals: each representative model's
// total and the records that make up its change.
func mdRoutes(routes []*RouteChange) string {
	var b strings.Builder
	b.WriteString("| Route | o200k_base tokens | Made up of |\n| --- | --- | --- |\n")
	for _, r := range routes {
		name := mdtext.CodeSpan(r.Model)
		if r.Provider != "" {
			name += " (" + mdtext.Text(r.Provider) + ")"
		}
		var parts []string
		for _, p := range r.Parts {
			parts = append(parts, mdtext.Text(p.Label+" "+p.Change)+" ("+Signed(p.Delta())+", "+mdtext.CodeSpan(p.Record)+")")
		}
		made := strings.Join(parts, "; ")
		if made == "" {
			made = "—"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", cell(name), cell(mdtext.Text(r.Total())), cell(made))
	}
	return b.String()
}

// mdSource is a source label with the commit linked when there is one.
func mdSource(doc *findings.Document) string {
	s := doc.Source
	label := mdtext.CodeSpan(findings.SourceLabel(s))
	if s.Commit != nil && strings.HasPrefix(s.Repo, "http") {
		return "[" + label + "](" + strings.TrimSuffix(s.Repo, "/") + "/commit/" + *s.Commit + ")"
	}
	return label
}

func mdCite(doc *findings.Document, r *findings.Record) string {
	if r == nil {
		return ""
	}
	c, err := cite.Record(doc, r)
	if err != nil {
		return ""
	}
	text := c.Short().Format()
	if mdtext.Visible(text) != text {
		// The citation format does not escape its path; show it as code.
		return mdtext.CodeSpan(text)
	}
	return text
}

// mdWhere is where() with each line range linked to its permalink.
func mdWhere(f *FindingDiff) string {
	rng := func(r *findings.Record, withPath bool) string {
		s := fmt.Sprintf("L%d–%d", r.Location.Lines.Start, r.Location.Lines.End)
		if r.Location.Permalink != "" {
			s = "[" + s + "](" + r.Location.Permalink + ")"
		}
		if withPath {
			s = mdtext.CodeSpan(r.Location.Path) + " " + s
		}
		return s
	}
	ok := func(r *findings.Record) bool { return r != nil && r.Located() }
	o, n := f.Old, f.New
	switch {
	case ok(o) && ok(n) && o.Location.Path == n.Location.Path && o.Location.Lines == n.Location.Lines:
		s := fmt.Sprintf("%s L%d–%d", mdtext.CodeSpan(n.Location.Path), n.Location.Lines.Start, n.Location.Lines.End)
		if o.Location.Permalink != "" && n.Location.Permalink != "" && o.Location.Permalink != n.Location.Permalink {
			s += " ([old](" + o.Location.Permalink + "), [new](" + n.Location.Permalink + "))"
		} else if n.Location.Permalink != "" {
			s += " ([permalink](" + n.Location.Permalink + "))"
		}
		return s
	case ok(o) && ok(n) && o.Location.Path == n.Location.Path:
		return rng(o, true) + " → " + rng(n, false)
	case ok(o) && ok(n):
		return rng(o, true) + " → " + rng(n, true)
	case ok(o):
		return rng(o, true)
	case ok(n):
		return rng(n, true)
	}
	return "—"
}

// cell makes text safe inside a table cell.
func cell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

// Diff as JSON.
type (
	diffJSON struct {
		Schema   string            `json:"schema"`
		Old      findings.Source   `json:"old"`
		New      findings.Source   `json:"new"`
		Changed  bool              `json:"changed"`
		Summary  map[string]int    `json:"summary"`
		Findings []findingDiffJSON `json:"findings"`
		Routes   []*RouteChange    `json:"routes,omitempty"`
	}
	findingDiffJSON struct {
		ID     string       `json:"id"`
		Title  string       `json:"title"`
		Status string       `json:"status"`
		Note   string       `json:"note,omitempty"`
		Old    *sideJSON    `json:"old"`
		New    *sideJSON    `json:"new"`
		Hunks  []Hunk       `json:"hunks,omitempty"`
		Facts  []factJSON   `json:"facts,omitempty"`
		Tokens *TokenChange `json:"tokens,omitempty"`
	}
	sideJSON struct {
		Status    findings.Status `json:"status"`
		Path      *string         `json:"path"`
		Lines     *findings.Lines `json:"lines"`
		SHA256    *string         `json:"sha256"`
		Permalink *string         `json:"permalink"`
		Citation  *string         `json:"citation"`
		Problem   *string         `json:"problem"`
	}
	factJSON struct {
		Name  string   `json:"name"`
		Old   any      `json:"old,omitempty"`
		New   any      `json:"new,omitempty"`
		Items []string `json:"items,omitempty"`
	}
)

func side(doc *findings.Document, r *findings.Record) *sideJSON {
	if r == nil {
		return nil
	}
	s := &sideJSON{Status: r.Status, Problem: r.Problem}
	if l := r.Location; l != nil {
		lines := *l
		s.Path, s.Lines, s.SHA256 = &lines.Path, &lines.Lines, &lines.SHA256
		if l.Permalink != "" {
			s.Permalink = &lines.Permalink
		}
	}
	if c, err := cite.Record(doc, r); err == nil {
		text := c.Short().Format()
		s.Citation = &text
	}
	return s
}

// MarshalIndent encodes the diff (schema keyfindings/diff/v1), indented,
// with a trailing newline. Every status appears in summary, zeros too;
// with opts.Changed, findings lists only those that differ.
func (d *Diff) MarshalIndent(opts ReportOptions) ([]byte, error) {
	out := diffJSON{Schema: Schema, Old: d.Old.Source, New: d.New.Source, Changed: d.Changed(), Summary: map[string]int{}, Findings: []findingDiffJSON{}}
	for _, s := range Statuses {
		out.Summary[s] = 0
	}
	for s, n := range d.Counts() {
		out.Summary[s] = n
	}
	for _, f := range d.shown(opts) {
		fj := findingDiffJSON{ID: f.ID, Title: f.Title, Status: f.Status, Note: f.Note, Old: side(d.Old, f.Old), New: side(d.New, f.New), Hunks: f.Hunks, Tokens: f.Tokens}
		for _, fc := range f.Facts {
			fj.Facts = append(fj.Facts, factJSON{Name: fc.Name, Old: fc.Old, New: fc.New, Items: fc.Items})
		}
		out.Findings = append(out.Findings, fj)
	}
	out.Routes = d.shownRoutes(opts)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
