package site

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

// TestIndexBrief checks that the index stays short while keeping every
// finding: its contents list links every finding's anchor on the index;
// each entry gives the claim and the citation and links the full record,
// quoting no code (a file cited whole is described with its size); the
// area page quotes the file with its size and hash, and a 30-line excerpt
// whole.
func TestIndexBrief(t *testing.T) {
	doc := readFixture(t, "findings.json")
	long := doc.Findings[4].Clone() // tool-list, a located part of a file
	long.ID, long.Definition = "long-span", "long-span"
	var b strings.Builder
	// Longer than the index shows whole (indexLines), shorter than the
	// area page folds (foldLines).
	for i := range 30 {
		fmt.Fprintf(&b, "const line%d = %d\n", i, i)
	}
	excerpt := b.String()
	long.Location.Excerpt = excerpt
	long.Location.Lines = findings.Lines{Start: 100, End: 129}
	doc.Findings = append(doc.Findings, long)
	files, err := RenderWith(doc, testLicense, Options{})
	if err != nil {
		t.Fatal(err)
	}
	index, prompts, tools := string(files["index.html"]), string(files["prompts.html"]), string(files["tools.html"])

	_, contents, ok := strings.Cut(index, "<p>Contents:</p>")
	contents, _, ok2 := strings.Cut(contents, "</ol>\n<p>")
	if !ok || !ok2 {
		t.Fatal("index has no contents list")
	}
	for _, rec := range doc.Findings {
		if !strings.Contains(contents, `<a href="#`+rec.ID+`">`) {
			t.Errorf("contents list does not link %s", rec.ID)
		}
		if !strings.Contains(index, `id="`+rec.ID+`"`) {
			t.Errorf("index has no anchor #%s", rec.ID)
		}
	}

	for _, id := range []string{"prompt-files-plain", "prompt-files-terse"} {
		rec := recordByID(t, doc, id)
		perma, _, _ := strings.Cut(rec.Location.Permalink, "#")
		lineLink := regexp.MustCompile(regexp.QuoteMeta(perma) + `#L\d+"`)
		if n := len(lineLink.FindAllString(index, -1)); n > 0 {
			t.Errorf("index quotes %d lines of %s, a file cited whole", n, id)
		}
		if n := len(lineLink.FindAllString(prompts, -1)); n != rec.Location.Lines.End {
			t.Errorf("prompts.html links %d lines of %s, want all %d", n, id, rec.Location.Lines.End)
		}
		size := fmt.Sprintf("%.0f bytes", rec.Facts["bytes"])
		if want := `<a href="prompts.html#` + id + `">`; !strings.Contains(section(index, id), want) || !strings.Contains(section(index, id), size) {
			t.Errorf("index entry of %s lacks its size (%s) or the link %s:\n%s", id, size, want, section(index, id))
		}
		if want := fmt.Sprintf("The whole file: %s, %d lines, SHA-256 <code>%s</code>", size, rec.Location.Lines.End, rec.Location.SHA256); !strings.Contains(prompts, want) {
			t.Errorf("prompts.html lacks %q", want)
		}
		for _, want := range []string{"lines 1–", "SHA-256 <code>" + (rec.Location.SHA256)[:12]} {
			if !strings.Contains(section(index, id), want) {
				t.Errorf("index entry of %s lacks %q", id, want)
			}
		}
	}

	line := func(n int) string { return fmt.Sprintf(`#L%d">%d</a>`, n, n) }
	entry := section(index, "long-span")
	if strings.Contains(entry, "<pre") || strings.Contains(entry, line(100)) {
		t.Errorf("index entry of a 30-line excerpt quotes code:\n%s", entry)
	}
	if want := `<a href="tools.html#long-span">full record</a>`; !strings.Contains(entry, want) || !strings.Contains(entry, "lines 100–129") {
		t.Errorf("index entry of a located excerpt lacks its citation or %q:\n%s", want, entry)
	}
	if strings.Contains(index, "<strong>When:</strong>") || strings.Contains(index, "<pre") {
		t.Error("the index shows conditions or code, which belong to the area pages")
	}
	if !strings.Contains(tools, line(129)) || strings.Contains(section(tools, "long-span"), "<details") {
		t.Error("tools.html does not show the whole 30-line excerpt unfolded")
	}
}

func recordByID(t *testing.T, doc *findings.Document, id string) *findings.Record {
	t.Helper()
	for _, r := range doc.Findings {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no record %s", id)
	return nil
}

// section returns the HTML of the index entry whose heading has the id,
// up to the next heading.
func section(html, id string) string {
	_, rest, ok := strings.Cut(html, `id="`+id+`"`)
	if !ok {
		return ""
	}
	if i := strings.Index(rest, "<h"); i >= 0 {
		rest = rest[:i]
	}
	return rest
}
