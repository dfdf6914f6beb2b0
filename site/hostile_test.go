package site

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/mdtext"
)

// hostileExcerpt is source text that tries to become markup, a template,
// or to end its code block.
const hostileExcerpt = "<script>alert(1)</script>\n" +
	"</code></pre><img src=x onerror=alert(1)>\n" +
	"```\n" +
	"````````` nine backticks\n" +
	"~~~\n" +
	"~~~~~~~~~~~~ twelve tildes\n" +
	"{{ .Doc }} {{template \"index\"}}\n" +
	"crlf line\r\n" +
	"lone\rcr\n" +
	"bad byte \uFFFD here\n" +
	"[x](javascript:alert(1)) ]() ![i](x)\n" +
	"| a | b |\n" +
	"<!-- comment --> &amp; &lt;b&gt;\n" +
	"\u202eevil bidi\u202c\n"

const hostilePath = "packages/x/<script>`evil`|]()/{{.}}/a b.ts"

func hostileDoc() *findings.Document {
	str := func(s string) *string { return &s }
	commit := "89abcdef0123456789abcdef0123456789abcdef"
	n := strings.Count(hostileExcerpt, "\n")
	return &findings.Document{
		Schema: findings.Schema,
		Source: findings.Source{
			Repo: "https://github.com/example/agent", Ref: "<b>ref</b>", Commit: &commit,
			Version: str("1.0 <script>v</script>"), CommittedAt: str("not a date <i>"),
			License: &findings.License{Path: "LICENSE<b>", SHA256: "ff"},
		},
		Findings: []*findings.Record{
			{
				ID: "hostile-one", Definition: "hostile-one", Page: "tools",
				Section: "Section <script>s</script> {#sec}", Title: "Title <script>t</script> `x` {onclick=alert(1)} {#evil}",
				Claim:  "Claim with <script>c()</script> and <b>bold</b> and `code`.",
				When:   "When <i>x</i>\n\n# not a heading",
				Caveat: str("Caveat <img src=x onerror=y>"),
				Status: findings.StatusLocated,
				Location: &findings.Location{
					Path: hostilePath, MovedFrom: "old/<script>.ts", Blob: "<blob>", Lines: findings.Lines{Start: 7, End: 7 + n - 1},
					SHA256:    strings.Repeat("0123456789abcdef", 4), // a record with another sha256 does not decode
					Excerpt:   hostileExcerpt,
					Permalink: "https://github.com/example/agent/blob/" + commit + "/" + hostilePath + "\"><script>#L7-L20",
				},
				Facts: findings.Facts{
					"script": "<script>alert(1)</script>",
					"pipes":  []any{"a|b", `a\|b`, "|"},
					"ticks":  "``` and ~~~",
					"tmpl":   "{{ .Doc }}",
					"link":   "[x](javascript:alert(1))",
					"nl":     "a\nb\r\nc",
					"fffd":   "\uFFFD",
					"objs":   []any{map[string]any{"k|ey <b>": "</td></tr>", "x": "`"}},
					"map":    map[string]any{"<i>": []any{"]()", 1.5}},
				},
				Review:   str("<b>review</b>"),
				Warnings: []string{"<script>w()</script>", "line\nbreak"},
			},
			{
				ID: "hostile-two", Definition: "hostile-two", Page: "tools", Section: "Section <script>s</script> {#sec}",
				Title: "Ambiguous <x>", Claim: "c", When: "w", Status: findings.StatusAmbiguous,
				Problem: str("2 matches in <script>p</script>"),
				Candidates: []findings.Candidate{
					{Path: hostilePath, Lines: findings.Lines{Start: 1, End: 2}},
					{Path: "b`|<i>.ts", Lines: findings.Lines{Start: 3, End: 3}},
				},
				Facts: findings.Facts{}, Warnings: []string{},
			},
		},
	}
}

// allowedTags are the only elements the pages may contain.
var allowedTags = map[string]bool{
	"html": true, "head": true, "meta": true, "title": true, "link": true, "body": true,
	"header": true, "nav": true, "main": true, "footer": true,
	"h1": true, "h2": true, "h3": true, "p": true, "a": true, "strong": true, "em": true,
	"code": true, "pre": true, "span": true, "ul": true, "ol": true, "li": true,
	"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true,
	"blockquote": true, "details": true, "summary": true, "del": true, "br": true, "hr": true,
}

// allowedAttrs are the only attributes they may carry.
var allowedAttrs = map[string]bool{
	"lang": true, "charset": true, "name": true, "content": true, "rel": true, "href": true,
	"id": true, "class": true, "aria-label": true, "aria-current": true, "align": true,
}

var (
	tagRE  = regexp.MustCompile(`<(/?)([A-Za-z][A-Za-z0-9]*)([^>]*)>`)
	attrRE = regexp.MustCompile(`\s([A-Za-z-]+)(?:="([^"]*)")?`)
)

// checkMarkup fails when html has an element, attribute or URL that the
// templates do not write; ids are returned for further checks.
func checkMarkup(t *testing.T, name, html string) []string {
	t.Helper()
	var ids []string
	if strings.Contains(html, "\r") {
		t.Errorf("%s: contains a CR", name)
	}
	for _, m := range tagRE.FindAllStringSubmatch(html, -1) {
		tag := strings.ToLower(m[2])
		if !allowedTags[tag] {
			t.Errorf("%s: element <%s> in output: %s", name, tag, truncate(m[0], 120))
		}
		rest := m[3]
		for _, a := range attrRE.FindAllStringSubmatch(rest, -1) {
			attr := strings.ToLower(a[1])
			if !allowedAttrs[attr] {
				t.Errorf("%s: attribute %s on <%s>: %s", name, attr, tag, truncate(m[0], 120))
			}
			if attr == "href" && strings.HasPrefix(strings.ToLower(strings.TrimSpace(a[2])), "javascript:") {
				t.Errorf("%s: javascript: link %s", name, m[0])
			}
			if attr == "id" {
				ids = append(ids, a[2])
			}
		}
		// What is left after the attributes must be blank (or a "/").
		if left := strings.TrimSpace(attrRE.ReplaceAllString(rest, "")); left != "" && left != "/" {
			t.Errorf("%s: unparsed tag text %q in %s", name, left, truncate(m[0], 120))
		}
	}
	return ids
}

func TestHostileHTML(t *testing.T) {
	files, err := RenderWith(hostileDoc(), []byte("licence"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.html", "prompts.html", "tools.html", "configuration.html", "network.html"} {
		page := string(files[name])
		ids := checkMarkup(t, name, page)
		for _, id := range ids {
			if strings.Contains(id, "evil") || id == "sec" {
				t.Errorf("%s: injected id %q", name, id)
			}
		}
		if name != "index.html" && name != "tools.html" {
			continue
		}
		sort.Strings(ids)
		if !contains(ids, "hostile-one") || !contains(ids, "hostile-two") {
			t.Errorf("%s: ids %v lack the records'", name, ids)
		}
		// The excerpt is there as text, one numbered line per source line
		// (on the area page; the index quotes no code).
		plain := textOf(page)
		wants := []string{"{onclick=alert(1)} {#evil}"} // no heading attributes from a title
		if name != "index.html" {
			wants = append(wants,
				"<script>alert(1)</script>",
				"</code></pre><img src=x onerror=alert(1)>",
				"{{ .Doc }} {{template \"index\"}}",
				"bad byte \uFFFD here",
				"lone\u240dcr",
				"[x](javascript:alert(1)) ]() ![i](x)",
				"\u27e8U+202E\u27e9evil bidi",
			)
		}
		for _, want := range wants {
			if !strings.Contains(plain, want) {
				t.Errorf("%s: excerpt text %q missing", name, want)
			}
		}
		if name == "tools.html" {
			for _, want := range []string{
				"a|b, a\\|b, |", // facts with pipes stay in their cell
				"</td></tr>",    // a fact value that tries to end the table
				"a\\nb\\r\\nc",  // line breaks in a fact are shown escaped
			} {
				if !strings.Contains(plain, want) {
					t.Errorf("%s: fact text %q missing", name, want)
				}
			}
		}
		n := strings.Count(hostileExcerpt, "\n")
		if name == "index.html" {
			n = 0
		}
		if got := strings.Count(page, `<a class="ln"`); got != n {
			t.Errorf("%s: %d numbered lines, want %d", name, got, n)
		}
		if got, want := strings.Count(page, "<pre"), strings.Count(page, "</pre>"); got != want {
			t.Errorf("%s: %d <pre> but %d </pre>", name, got, want)
		}
		if strings.Contains(page, "<script") || strings.Contains(page, "<img") {
			t.Errorf("%s: markup from data", name)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestHostileMarkdown parses findings.md as GitHub would (GFM, raw HTML
// allowed) and checks that the only raw HTML is the anchors the template
// writes, that the excerpt's fenced block holds exactly the excerpt, and
// that its fence is longer than any backtick or tilde run in it.
func TestHostileMarkdown(t *testing.T) {
	files, err := RenderWith(hostileDoc(), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := files["findings.md"]
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := md.Parser().Parse(text.NewReader(src))
	anchor := regexp.MustCompile(`^(<a id="[a-z0-9-]+">|</a>)$`)
	var blocks []string
	err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			t.Errorf("findings.md has an HTML block: %q", n.Lines().Value(src))
		case *ast.RawHTML:
			var b bytes.Buffer
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				b.Write(seg.Value(src))
			}
			if !anchor.MatchString(b.String()) {
				t.Errorf("findings.md has raw HTML %q", b.String())
			}
		case *ast.FencedCodeBlock:
			var b bytes.Buffer
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				b.Write(seg.Value(src))
			}
			blocks = append(blocks, b.String())
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range blocks {
		if strings.HasPrefix(b, "<script>alert(1)") {
			found = true
			if want := displayText(hostileExcerpt); b != want {
				t.Errorf("excerpt block holds\n%q\nwant\n%q", b, want)
			}
		}
	}
	if !found {
		t.Errorf("no fenced block holds the excerpt; blocks: %q", blocks)
	}
	i := bytes.Index(src, []byte("<script>alert(1)</script>\n"))
	line := src[bytes.LastIndexByte(src[:i-1], '\n')+1 : i]
	fenceLen := len(line) - len(bytes.TrimLeft(line, "`"))
	if fenceLen <= mdtext.LongestRun(hostileExcerpt, '`') || fenceLen <= mdtext.LongestRun(hostileExcerpt, '~') {
		t.Errorf("fence %q is not longer than the runs in the excerpt", line)
	}
	// Rendered as GitHub would, no tag beyond the anchors and GFM's own.
	var out bytes.Buffer
	if err := md.Renderer().Render(&out, src, doc); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "<script") || strings.Contains(out.String(), "<img") {
		t.Errorf("findings.md renders markup from data")
	}
}
