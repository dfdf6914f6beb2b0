package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/keyfindings/keyfindings/cite"
	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/mdtext"
)

// dateLayout is how text and Markdown show a commit's date (UTC).
const dateLayout = "2006-01-02 15:04:05 UTC"

// citeText is a record's citation as `keyfindings cite` prints it, or its
// status and problem when it has none.
func citeText(doc *findings.Document, r *findings.Record) string {
	switch {
	case r == nil && doc == nil:
		return "(no parent)"
	case r == nil:
		return "none: no record with this id"
	}
	if c := citation(doc, r); c != nil {
		return *c
	}
	return string(r.Status) + ": " + problemOf(r)
}

// citation is citeText for JSON: nil where the record has no citation.
func citation(doc *findings.Document, r *findings.Record) *string {
	if r == nil || doc == nil {
		return nil
	}
	if !located(r) {
		return nil
	}
	c, err := cite.Record(doc, r)
	if err != nil {
		// No web URL to link to: the plain form, path, lines and hash.
		c = cite.Citation{Path: r.Location.Path, Start: r.Location.Lines.Start, End: r.Location.Lines.End, Hash: r.Location.SHA256}
	}
	s := c.Short().Format()
	return &s
}

func problemOf(r *findings.Record) string {
	if r.Problem == nil || *r.Problem == "" {
		return "no reason recorded"
	}
	return *r.Problem
}

// where is the record's location at the commit, "path L1–9", or its
// status.
func where(r *findings.Record) string {
	if !located(r) {
		return status(r)
	}
	return fmt.Sprintf("%s L%d–%d", r.Location.Path, r.Location.Lines.Start, r.Location.Lines.End)
}

// WriteText writes the history for a terminal, newest commit first, in
// the manner of git log: a header per commit, the subject indented, the
// two citations, the excerpt diff and the fact changes.
func (h *History) WriteText(w io.Writer) error {
	var b strings.Builder
	if len(h.Entries) == 0 {
		fmt.Fprintf(&b, "keyfindings log %s: no commit in the range changed the record\n", h.ID)
	}
	for i, e := range h.Entries {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "commit %s\n", e.Commit)
		fmt.Fprintf(&b, "Author:  %s <%s>\n", mdtext.Visible(e.Author), mdtext.Visible(e.Email))
		fmt.Fprintf(&b, "Date:    %s\n", e.Date.Format(dateLayout))
		fmt.Fprintf(&b, "Release: %s\n", releaseText(e.Release))
		fmt.Fprintf(&b, "Kind:    %s  %s\n", e.Kind, mdtext.Visible(where(e.New)))
		fmt.Fprintf(&b, "\n    %s\n\n", mdtext.Visible(e.Subject))
		fmt.Fprintf(&b, "    old: %s\n", mdtext.Visible(citeText(e.OldDoc, e.Old)))
		fmt.Fprintf(&b, "    new: %s\n", mdtext.Visible(citeText(e.NewDoc, e.New)))
		if e.Diff.Note != "" {
			fmt.Fprintf(&b, "    %s\n", mdtext.Visible(e.Diff.Note))
		}
		if len(e.Diff.Hunks) > 0 {
			fmt.Fprintf(&b, "    --- a/%s\n    +++ b/%s\n", mdtext.Visible(e.Old.Location.Path), mdtext.Visible(e.New.Location.Path))
			for _, hk := range e.Diff.Hunks {
				b.WriteString("    " + hk.Header() + "\n")
				for _, l := range hk.Lines {
					b.WriteString("    " + l + "\n")
				}
			}
		}
		for _, fc := range e.Diff.Facts {
			if fc.Items != nil {
				fmt.Fprintf(&b, "    fact %s:\n", fc.Name)
				for _, it := range fc.Items {
					fmt.Fprintf(&b, "      %s %s\n", it[:1], it[1:])
				}
				continue
			}
			fmt.Fprintf(&b, "    fact %s: %s → %s\n", fc.Name, findings.CompactJSON(fc.Old), findings.CompactJSON(fc.New))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func releaseText(r string) string {
	if r == "" {
		return "(in no release)"
	}
	return r
}

// WriteMarkdown writes the history as GitHub-flavoured Markdown: a
// section per commit with its link, kind, release, subject, both
// citations, the excerpt diff and the facts. Text from the repository
// (subjects, authors, paths, excerpts, facts) goes through the site's
// Markdown helpers, so none of it becomes markup.
func (h *History) WriteMarkdown(w io.Writer, webURL string) error {
	var blocks []string
	add := func(s string) { blocks = append(blocks, strings.TrimRight(s, "\n")) }
	add(fmt.Sprintf("### History of %s", mdtext.CodeSpan(h.ID)))
	if t := strings.Join(strings.Fields(h.Title), " "); t != "" {
		add(t)
	}
	switch len(h.Entries) {
	case 0:
		add("No commit in the range changed the record.")
	case 1:
		add("1 commit changed the record.")
	default:
		add(fmt.Sprintf("%d commits changed the record, newest first.", len(h.Entries)))
	}
	for _, e := range h.Entries {
		commit := mdtext.CodeSpan(e.Commit[:findings.ShortCommitLen])
		if webURL != "" {
			commit = "[" + commit + "](" + webURL + "/commit/" + e.Commit + ")"
		}
		head := fmt.Sprintf("#### %s · %s", commit, e.Kind)
		if e.Release != "" {
			head += " · first released in " + mdtext.CodeSpan(e.Release)
		}
		add(head)
		add(mdtext.Text(e.Subject))
		add(fmt.Sprintf("%s · %s", e.Date.Format(dateLayout), mdtext.Text(e.Author)))
		add("- Old: " + mdCite(e.OldDoc, e.Old) + "\n- New: " + mdCite(e.NewDoc, e.New))
		if e.Diff.Note != "" {
			add(mdtext.Text(e.Diff.Note))
		}
		if len(e.Diff.Hunks) > 0 {
			var body strings.Builder
			fmt.Fprintf(&body, "--- a/%s\n+++ b/%s\n", e.Old.Location.Path, e.New.Location.Path)
			for _, hk := range e.Diff.Hunks {
				body.WriteString(hk.Header() + "\n")
				for _, l := range hk.Lines {
					body.WriteString(l + "\n")
				}
			}
			add(mdtext.Fence("diff", body.String()))
		}
		var facts strings.Builder
		for _, fc := range e.Diff.Facts {
			if fc.Items == nil {
				fmt.Fprintf(&facts, "| %s | %s | %s |\n", mdtext.TableCode(fc.Name), mdtext.TableCode(findings.CompactJSON(fc.Old)), mdtext.TableCode(findings.CompactJSON(fc.New)))
			}
		}
		if facts.Len() > 0 {
			add("| Fact | Old | New |\n| --- | --- | --- |\n" + facts.String())
		}
		for _, fc := range e.Diff.Facts {
			if fc.Items == nil {
				continue
			}
			add("Fact " + mdtext.CodeSpan(fc.Name) + ":")
			var body strings.Builder
			for _, it := range fc.Items {
				body.WriteString(it[:1] + " " + it[1:] + "\n")
			}
			add(mdtext.Fence("diff", body.String()))
		}
	}
	_, err := io.WriteString(w, strings.Join(blocks, "\n\n")+"\n")
	return err
}

// mdCite is citeText in Markdown: the citation as it is (its format escapes
// its own text), or the status and problem escaped.
func mdCite(doc *findings.Document, r *findings.Record) string {
	if c := citation(doc, r); c != nil {
		return *c
	}
	return mdtext.Text(citeText(doc, r))
}

// Entries as JSON.
type (
	entryJSON struct {
		ID      string          `json:"id"`
		Commit  string          `json:"commit"`
		Parent  *string         `json:"parent"`
		Date    string          `json:"date"`
		Author  string          `json:"author"`
		Email   string          `json:"email"`
		Subject string          `json:"subject"`
		Release *string         `json:"release"`
		Kind    string          `json:"kind"`
		Status  string          `json:"status"`
		Path    *string         `json:"path"`
		Lines   *findings.Lines `json:"lines"`
		SHA256  *string         `json:"sha256"`
		Old     *sideJSON       `json:"old"`
		New     *sideJSON       `json:"new"`
		Facts   []factJSON      `json:"facts"`
		Hunks   []diff.Hunk     `json:"hunks"`
		Note    string          `json:"note,omitempty"`
	}
	sideJSON struct {
		Status    string          `json:"status"`
		Path      *string         `json:"path"`
		MovedFrom *string         `json:"moved_from"`
		Lines     *findings.Lines `json:"lines"`
		SHA256    *string         `json:"sha256"`
		Citation  *string         `json:"citation"`
		Problem   *string         `json:"problem"`
	}
	factJSON struct {
		Name  string   `json:"name"`
		Old   any      `json:"old"`
		New   any      `json:"new"`
		Items []string `json:"items,omitempty"`
	}
)

func side(doc *findings.Document, r *findings.Record) *sideJSON {
	if doc == nil {
		return nil
	}
	if r == nil {
		return &sideJSON{Status: status(nil)}
	}
	s := &sideJSON{Status: string(r.Status), Citation: citation(doc, r), Problem: r.Problem}
	if r.Located() {
		loc := *r.Location
		s.Path, s.Lines, s.SHA256 = &loc.Path, &loc.Lines, &loc.SHA256
		if loc.MovedFrom != "" {
			s.MovedFrom = &loc.MovedFrom
		}
	}
	return s
}

// Histories are the histories of several records (LogEach), written one
// after another.
type Histories []*History

// WriteText writes each history as History.WriteText does, under a
// "==> id <==" line when there are several.
func (hs Histories) WriteText(w io.Writer) error {
	for i, h := range hs {
		if len(hs) > 1 {
			sep := ""
			if i > 0 {
				sep = "\n"
			}
			if _, err := fmt.Fprintf(w, "%s==> %s <==\n", sep, h.ID); err != nil {
				return err
			}
		}
		if err := h.WriteText(w); err != nil {
			return err
		}
	}
	return nil
}

// WriteMarkdown writes each history as History.WriteMarkdown does.
func (hs Histories) WriteMarkdown(w io.Writer, webURL string) error {
	for i, h := range hs {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := h.WriteMarkdown(w, webURL); err != nil {
			return err
		}
	}
	return nil
}

// MarshalIndent encodes the entries of every history as one array (each
// entry names its record in "id"), in the order of the histories and,
// within each, newest first; indented, with a trailing newline.
func (hs Histories) MarshalIndent() ([]byte, error) {
	out := []entryJSON{}
	for _, h := range hs {
		for _, e := range h.Entries {
			out = append(out, entryOf(h.ID, e))
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func entryOf(id string, e *Entry) entryJSON {
	j := entryJSON{
		ID: id, Commit: e.Commit, Date: e.Date.Format("2006-01-02T15:04:05Z"),
		Author: e.Author, Email: e.Email, Subject: e.Subject, Kind: e.Kind,
		Status: status(e.New), Old: side(e.OldDoc, e.Old), New: side(e.NewDoc, e.New),
		Facts: []factJSON{}, Hunks: e.Diff.Hunks, Note: e.Diff.Note,
	}
	if j.Hunks == nil {
		j.Hunks = []diff.Hunk{}
	}
	if e.Parent != "" {
		j.Parent = &e.Parent
	}
	if e.Release != "" {
		j.Release = &e.Release
	}
	if located(e.New) {
		loc := *e.New.Location
		j.Path, j.Lines, j.SHA256 = &loc.Path, &loc.Lines, &loc.SHA256
	}
	for _, fc := range e.Diff.Facts {
		j.Facts = append(j.Facts, factJSON{Name: fc.Name, Old: fc.Old, New: fc.New, Items: fc.Items})
	}
	return j
}
