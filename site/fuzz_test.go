package site

import (
	"regexp"
	"strings"
	"testing"

	"unicode/utf8"

	"github.com/keyfindings/keyfindings/mdtext"
)

// FuzzFence checks, for any excerpt, that the fence is longer than every
// backtick and tilde run in it and that goldmark reads exactly the excerpt
// back out of the block, with nothing after it swallowed.
func FuzzFence(f *testing.F) {
	for _, s := range []string{"", "```\n", "~~~~\n```", "a ```` b\n\n~~~", "<script>x</script>", "crlf\r\n", "\x00\xff"} {
		f.Add(s)
	}
	pre := regexp.MustCompile(`(?s)<pre.*</pre>`)
	md := testMarkdown()
	f.Fuzz(func(t *testing.T, body string) {
		if !utf8.ValidString(body) {
			// Excerpts reach the templates as valid UTF-8 (U+FFFD for bad
			// bytes); see extract.
			body = strings.ToValidUTF8(body, "\uFFFD")
		}
		fc := fence("ts", body)
		n := len(fc) - len(strings.TrimLeft(fc, "`"))
		if n <= mdtext.LongestRun(body, '`') || n <= mdtext.LongestRun(body, '~') || n < 3 {
			t.Fatalf("fence for %q is %d backticks", body, n)
		}
		out, err := md.convert([]byte("before\n\n" + fc + "\n\nafter\n"))
		if err != nil {
			t.Fatal(err)
		}
		got := string(out)
		if !strings.HasSuffix(got, "<p>after</p>\n") || strings.Count(got, "<pre") != 1 {
			t.Fatalf("fence for %q did not hold: %s", body, got)
		}
		want := displayText(body)
		if !strings.HasSuffix(want, "\n") {
			want += "\n"
		}
		if txt := textOf(pre.FindString(got)); txt != want {
			t.Fatalf("fence for %q shows %q, want %q", body, txt, want)
		}
	})
}

// FuzzExcerptHTML renders a site whose excerpt, path and fact are fuzzed
// text and checks that no element or attribute outside the allowed set
// appears on any page: source text never becomes markup.
func FuzzExcerptHTML(f *testing.F) {
	f.Add(hostileExcerpt, "a/b.ts", "x")
	f.Add("<b>x</b>\n", "<i>.ts", "</td>")
	f.Add("", "", "")
	f.Fuzz(func(t *testing.T, excerpt, path, fact string) {
		excerpt = strings.ToValidUTF8(excerpt, "\uFFFD")
		if excerpt == "" || !strings.HasSuffix(excerpt, "\n") {
			excerpt += "\n"
		}
		doc := hostileDoc()
		r := doc.Findings[0]
		r.Location.Excerpt = excerpt
		r.Location.Lines.End = r.Location.Lines.Start + strings.Count(excerpt, "\n") - 1
		r.Location.Path = strings.ToValidUTF8(path, "\uFFFD")
		r.Facts = map[string]any{"fuzzed": strings.ToValidUTF8(fact, "\uFFFD"), "list": []any{fact, 1.5}}
		files, err := RenderWith(doc, nil, Options{})
		if err != nil {
			t.Skipf("render refused the input: %v", err)
		}
		for _, name := range []string{"index.html", "prompts.html", "tools.html", "configuration.html", "network.html"} {
			checkMarkup(t, name, string(files[name]))
		}
	})
}

// FuzzMdText checks, for any text, that mdText shows it literally in one
// paragraph after other text, at a paragraph's start and on its second
// line (see TestMdTextRoundTrip).
func FuzzMdText(f *testing.F) {
	for _, s := range hostileStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkMdText(t, strings.ToValidUTF8(s, "\uFFFD"))
	})
}
