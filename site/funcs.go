package site

import (
	"fmt"
	"strings"

	"github.com/keyfindings/keyfindings/cite"
	"github.com/keyfindings/keyfindings/findings"
)

// excerptFence writes a located record's excerpt as a fenced block. On
// the pages (html) the block names the record (and more, such as
// excerptHeadInfo), and codeRenderer draws the located record of that id
// from the renderer's records: the excerpt's text is then left out of
// the Markdown rather than escaped, written and parsed only to be
// ignored.
func (r *renderer) excerptFence(rec *findings.Record, html bool, more string) string {
	_, info := language(rec.Location.Path)
	if !html {
		return fence(info, rec.Location.Excerpt)
	}
	info += " " + excerptInfo + rec.ID + more
	if known := r.records[rec.ID]; known != nil && known.Location != nil {
		return fence(info, "")
	}
	return fence(info, rec.Location.Excerpt)
}

// funcs returns the template functions for one flavour of Markdown: html
// for the pages (goldmark heading attributes, excerpts rendered from the
// record by reference), else findings.md's GitHub-flavoured Markdown.
//
// Functions that take data return Markdown that shows it literally; the
// templates never turn data into template text.
func (r *renderer) funcs(html bool) map[string]any {
	return map[string]any{
		// md escapes text (a string, or a value such as a status) to show
		// literally, on one line.
		"md": func(v any) string { return mdText(deref(v)) },
		// code shows text as an inline code span.
		"code": codeSpan,
		// cell shows a fact value in a table cell.
		"cell": factCell,
		// factTables arranges facts as tables.
		"factTables": factTables,
		// claim passes definition prose through, raw HTML shown as text.
		"claim": func(s string) (string, error) { return r.md.trustedMarkdown(s) },
		// inline is claim for a one-line slot.
		"inline": func(s string) (string, error) { return r.md.trustedInline(s) },
		// heading writes a heading line with an anchor.
		"heading": func(level int, text, id string) (string, error) {
			if level < 1 || level > 6 {
				return "", fmt.Errorf("heading level %d", level)
			}
			id, err := checkAnchor(id)
			if err != nil {
				return "", err
			}
			h := strings.Repeat("#", level) + " "
			if html {
				return h + mdText(text) + " {#" + id + "}", nil
			}
			return h + `<a id="` + id + `"></a>` + mdText(text), nil
		},
		// excerpt writes a located record's excerpt as a fenced block.
		"excerpt": func(rec *findings.Record) string {
			if rec == nil || rec.Location == nil {
				return ""
			}
			if link := r.sameAsLink(rec, html); link != "" {
				return link
			}
			return r.excerptFence(rec, html, "")
		},
		// excerptHead is excerpt for the index: on the pages a long
		// excerpt shows its head and links to the rest on its record's
		// page; findings.md gets the whole excerpt.
		"excerptHead": func(rec *findings.Record) string {
			if rec == nil || rec.Location == nil {
				return ""
			}
			if link := r.sameAsLink(rec, html); link != "" {
				return link
			}
			return r.excerptFence(rec, html, " "+excerptHeadInfo)
		},
		// toolResults is the tools-page summary of what the model reads
		// back from each tool, one row per tool-result record.
		"toolResults": toolResults,
		// wholeFile describes the file a record cites whole; nil when it
		// cites part of a file.
		"wholeFile": wholeFile,
		// figure places a figure the page was given (the releases
		// picture) where the template calls it.
		"figure": func(name string) (string, error) {
			if !html {
				return "", fmt.Errorf("figure %q: figures exist only on HTML pages", name)
			}
			if _, err := checkAnchor(name); err != nil {
				return "", fmt.Errorf("figure name: %w", err)
			}
			return fence(figureInfo+name, ""), nil
		},
		// fence writes text as a fenced code block; info is the language.
		"fence": func(info, text string) string {
			return fence(strings.Join(strings.Fields(strings.ReplaceAll(info, "`", "")), " "), text)
		},
		// short shortens a hash to its first 12 hex digits and an ellipsis.
		"short": func(hash any) string {
			s := deref(hash)
			if len(s) <= 12 {
				return s
			}
			return s[:12] + "…"
		},
		// lines writes "lines a–b" (or "line a").
		"lines": func(v any) string {
			var l findings.Lines
			switch v := v.(type) {
			case findings.Lines:
				l = v
			case *findings.Lines:
				if v == nil {
					return ""
				}
				l = *v
			default:
				return ""
			}
			return linesText(l)
		},
		// url makes a link destination safe.
		"url": func(u any) string { return linkURL(deref(u)) },
		// recordHref links to a record's full entry.
		"recordHref": func(rec *findings.Record) string {
			if !html {
				return "#" + rec.ID
			}
			file := rec.Page + ".html"
			if file == r.page {
				return "#" + rec.ID
			}
			return file + "#" + rec.ID
		},
		// indexHref links to a record's entry on the index.
		"indexHref": func(rec *findings.Record) string {
			if !html || r.page == "index.html" {
				return "#" + rec.ID
			}
			return "index.html#" + rec.ID
		},
		// title is a record's title, with the part of its id that tells
		// the records of an expect: all definition apart.
		"title": func(rec *findings.Record) string {
			if rec.Definition != "" && rec.ID != rec.Definition {
				if suffix, ok := strings.CutPrefix(rec.ID, rec.Definition+"-"); ok {
					return rec.Title + " — " + suffix
				}
			}
			return rec.Title
		},
		// status names a record status for a reader.
		"status": func(s findings.Status) string {
			switch s {
			case findings.StatusMissing:
				return "Missing"
			case findings.StatusAmbiguous:
				return "Ambiguous"
			case findings.StatusLocated:
				return "Located"
			case findings.StatusAbsent:
				return "Absent"
			}
			return mdText(string(s))
		},
		// candidateURL links to a candidate location; "" without a commit.
		"candidateURL": func(c findings.Candidate) string {
			web := webBase(r.doc.Source.Repo)
			if web == "" || r.doc.Source.Commit == nil {
				return ""
			}
			cite := cite.Citation{Path: c.Path, Start: c.Lines.Start, End: c.Lines.End, Commit: *r.doc.Source.Commit, WebURL: web}
			return cite.Permalink()
		},
		// commit is the full commit the records were read at; "" for a
		// plain directory.
		"commit": func() string { return deref(r.doc.Source.Commit) },
		// check is the shell command that recomputes a record's hash.
		"check": func(rec *findings.Record) string {
			if !rec.Located() {
				return ""
			}
			sed := fmt.Sprintf("sed -n '%d,%dp'", rec.Location.Lines.Start, rec.Location.Lines.End)
			if r.doc.Source.Commit == nil {
				return sed + " " + shellQuote(rec.Location.Path) + " | sha256sum"
			}
			return "git show " + shellQuote(*r.doc.Source.Commit+":"+rec.Location.Path) + " | " + sed + " | sha256sum"
		},
		// cite is a located record's citation in the cite format, the
		// text `keyfindings verify` reads back; "" when it has none.
		"cite": func(rec *findings.Record) string {
			c, err := cite.Record(r.doc, rec)
			if err != nil {
				return ""
			}
			return c.Short().Format()
		},
	}
}

// deref returns the string a template value holds: a string, a *string
// (nil gives ""), or anything else formatted.
func deref(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case *string:
		if v == nil {
			return ""
		}
		return *v
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	safe := s != ""
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./:@+,=", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
