package site

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/keyfindings/keyfindings/mdtext"
)

// hostileStrings are values a source tree could hand us.
var hostileStrings = []string{
	"plain",
	"<script>alert(1)</script>",
	"</code></pre><b>x</b>",
	"a|b", `a\|b`, `a\`, `\`, "|", "||",
	"`", "``", "```", "a ` b", "`a`", " `x` ", "~~~", "~~del~~",
	"[x](javascript:alert(1))", "]()", "![i](x.png)", "<https://example.com>",
	"*em* _em_ **strong**", "# heading", "- item", "1. item", "1) item", "> quote", "+ x", "= x",
	"{{ .Doc }}", "{#id}", "{onclick=alert(1)}", "&amp; &lt;", "&#60;",
	"line\nbreak", "cr\rlf\r\n", "tab\there", "nul\x00", "\uFFFD", "$x$", "@someone #123",
	"  leading and trailing  ",
	"1.18.3", "1.", "2)", "10. x", "123456789) x", "1.\tx", "-5", "-", "--", "---", "- - -", "-\tx", "+1", "+", "==", "=", "= =", "\x1c   0", "\x00- x",
}

// isC0 reports the control characters that mdtext shows as spaces or
// escapes: C0 and DEL.
func isC0(r rune) bool { return r < 0x20 || r == 0x7f }

var tagPattern = regexp.MustCompile(`<[^>]*>`)

// textOf strips the tags of goldmark's HTML and unescapes the rest.
func textOf(h string) string {
	return html.UnescapeString(tagPattern.ReplaceAllString(h, ""))
}

func testMarkdown() *markdown {
	set, err := loadTemplates(nil)
	if err != nil {
		panic(err)
	}
	return newMarkdown(nil, set.html, nil)
}

// sharedMarkdown is testMarkdown made once, for tests that convert often.
var sharedMarkdown = sync.OnceValue(testMarkdown)

func convert(t *testing.T, md string) string {
	t.Helper()
	out, err := sharedMarkdown().convert([]byte(md))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestMdTextRoundTrip checks that escaped text comes out of goldmark as the
// same text (controls as spaces, ends trimmed), inside a single paragraph,
// wherever it sits: after other text, at the start of a paragraph, and on
// a paragraph's second line (where a list can interrupt it and a setext
// underline turns it into a heading).
func TestMdTextRoundTrip(t *testing.T) {
	for _, s := range hostileStrings {
		checkMdText(t, s)
	}
}

// checkMdText fails when mdText(s) does not show as s in each place.
func checkMdText(t *testing.T, s string) {
	t.Helper()
	shown := strings.TrimSpace(strings.Map(func(r rune) rune {
		if isC0(r) {
			return ' '
		}
		return r
	}, s))
	for _, before := range []string{"Text: ", "", "Text:\n"} {
		if before == "" && shown == "" {
			continue // no text, no paragraph
		}
		got := convert(t, before+mdText(s)+"\n")
		if !strings.HasPrefix(got, "<p>") || strings.Count(got, "<p>") != 1 || strings.Count(got, "<") != 2 {
			t.Errorf("mdText(%q) after %q made markup: %s", s, before, got)
			continue
		}
		// Control characters become spaces and line starts lose theirs:
		// compare the words.
		if txt, want := strings.Fields(textOf(got)), strings.Fields(before+shown); !slices.Equal(txt, want) {
			t.Errorf("mdText(%q) after %q shows %q, want %q", s, before, txt, want)
		}
	}
}

// TestTableCellRoundTrip checks that a fact value stays in its cell and
// shows exactly (control characters escaped).
func TestTableCellRoundTrip(t *testing.T) {
	for _, s := range hostileStrings {
		md := "| a | b |\n| --- | --- |\n| " + factCell(s) + " | after |\n"
		got := convert(t, md)
		cells := regexp.MustCompile(`(?s)<td>(.*?)</td>`).FindAllStringSubmatch(got, -1)
		if len(cells) != 2 || cells[1][1] != "after" {
			t.Errorf("cell %q broke the row: %s", s, got)
			continue
		}
		if strings.Count(cells[0][1], "<code>") != 1 || strings.Count(cells[0][1], "<") != 2 {
			t.Errorf("cell %q made markup: %s", s, cells[0][1])
			continue
		}
		want := mdtext.Visible(s)
		if txt := textOf(cells[0][1]); txt != want {
			t.Errorf("cell %q shows %q, want %q", s, txt, want)
		}
	}
}

// TestCodeSpanRoundTrip checks inline code outside tables.
func TestCodeSpanRoundTrip(t *testing.T) {
	for _, s := range hostileStrings {
		got := convert(t, "Path: "+codeSpan(s)+" end\n")
		if strings.Count(got, "<code>") != 1 || strings.Count(got, "<") != 4 {
			t.Errorf("codeSpan(%q) made markup: %s", s, got)
			continue
		}
		if txt := textOf(got); txt != "Path: "+mdtext.Visible(s)+" end\n" {
			t.Errorf("codeSpan(%q) shows %q", s, txt)
		}
	}
}

// TestFence checks the fence is longer than any backtick or tilde run and
// that goldmark reads the block's content back exactly.
func TestFence(t *testing.T) {
	for _, body := range []string{
		"",
		"plain\n",
		"no final newline",
		"```\n",
		"````\n```\n",
		"~~~\n~~~~~~~~\n",
		"a ``````````` b\n",
		"    ```\n",
		"```ts\ncode\n```\n",
		"<script>x</script>\n</code></pre>\n",
		"crlf\r\nlone\rcr\n",
	} {
		f := fence("ts", body)
		n := len(f) - len(strings.TrimLeft(f, "`"))
		if n <= mdtext.LongestRun(body, '`') || n <= mdtext.LongestRun(body, '~') || n < 3 {
			t.Errorf("fence for %q is %d backticks", body, n)
		}
		got := convert(t, "before\n\n"+f+"\n\nafter\n")
		if !strings.HasSuffix(got, "<p>after</p>\n") || strings.Count(got, "<pre") != 1 {
			t.Errorf("fence for %q did not hold: %s", body, got)
			continue
		}
		want := displayText(body)
		if !strings.HasSuffix(want, "\n") {
			want += "\n"
		}
		pre := regexp.MustCompile(`(?s)<pre.*</pre>`).FindString(got)
		if txt := textOf(pre); txt != want {
			t.Errorf("fence for %q shows %q, want %q", body, txt, want)
		}
	}
}

// TestTrustedMarkdown checks that raw HTML in definition prose is shown as
// text while Markdown (code spans, emphasis, autolinks) still works.
func TestTrustedMarkdown(t *testing.T) {
	m := testMarkdown()
	for _, tc := range []struct{ in, want string }{
		{"The `<env>` block.", "<p>The <code>&lt;env&gt;</code> block.</p>\n"},
		{"An <env> block.", "<p>An &lt;env&gt; block.</p>\n"},
		{"<div>\nblock\n</div>", "<p>&lt;div&gt;\nblock\n&lt;/div&gt;</p>\n"},
		{"<!-- hidden -->", "<p>&lt;!-- hidden --&gt;</p>\n"},
		{"<script>x()</script> *y*", "<p>&lt;script&gt;x()&lt;/script&gt; <em>y</em></p>\n"},
		{"See <https://example.com>.", `<p>See <a href="https://example.com">https://example.com</a>.</p>` + "\n"},
	} {
		md, err := m.trustedMarkdown(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := convert(t, md); got != tc.want {
			t.Errorf("trustedMarkdown(%q) renders %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestCallout checks that GitHub alerts become classed blockquotes and that
// an escaped marker stays text.
func TestCallout(t *testing.T) {
	got := convert(t, "> [!WARNING]\n> **Careful.**\n")
	if got != "<blockquote class=\"callout warning\"><p><strong>Careful.</strong></p>\n</blockquote>\n" {
		t.Errorf("callout: %q", got)
	}
	got = convert(t, "> "+mdText("[!WARNING]")+"\n> text\n")
	if strings.Contains(got, "callout") || !strings.Contains(got, "[!WARNING]") {
		t.Errorf("escaped marker: %q", got)
	}
}

func TestLinkURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/o/r/blob/c/a b/(x).ts#L1-L2": "https://github.com/o/r/blob/c/a%20b/%28x%29.ts#L1-L2",
		"https://x/%41%zz":     "https://x/%41%25zz",
		`https://x/<script>"'`: "https://x/%3Cscript%3E%22%27",
		"https://x/é":          "https://x/%C3%A9",
	} {
		if got := linkURL(in); got != want {
			t.Errorf("linkURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTrustedMarkdownMemo checks that the memo of trustedMarkdown answers
// each text with that text's own neutralised Markdown, the first time and
// from the memo.
func TestTrustedMarkdownMemo(t *testing.T) {
	m := testMarkdown()
	for _, in := range []string{"An <env> block.", "An <tool> block.", " An <env> block. ", "<div>\nblock\n</div>", "plain"} {
		want, err := m.neutralise(in)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if got, err := m.trustedMarkdown(in); err != nil || got != want {
				t.Errorf("trustedMarkdown(%q) = %q, %v; want %q", in, got, err, want)
			}
		}
	}
}
