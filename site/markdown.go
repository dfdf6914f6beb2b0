package site

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/keyfindings/keyfindings/mdtext"
)

// This file holds the helpers that put data into Markdown. Text from the
// source (paths, facts, excerpts, problems) is untrusted: the helpers that
// take it are package mdtext's, which return Markdown that shows it
// literally and cannot start or end a construct around it. Prose from the
// definitions (claims, conditions, caveats) is trusted Markdown, but raw
// HTML in it is shown as text.

// The names the templates' functions and the renderer use for mdtext's
// helpers.
var (
	mdText      = mdtext.Text
	codeSpan    = mdtext.CodeSpan
	tableCode   = mdtext.TableCode
	fence       = mdtext.Fence
	displayText = mdtext.Display
	linkURL     = mdtext.LinkURL
)

var anchorPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// checkAnchor returns id if it can be used as an HTML id and a heading
// attribute as it is, else an error.
func checkAnchor(id string) (string, error) {
	if !anchorPattern.MatchString(id) {
		return "", fmt.Errorf("%q cannot be an anchor (want letters, digits, - and _)", id)
	}
	return id, nil
}

// slugify turns a heading into an anchor: lower case letters and digits,
// other runs joined by single hyphens, as GitHub does for plain headings.
func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return "section"
	}
	return b.String()
}

// formatNumber writes a JSON number as JSON would: integers without a
// fraction or exponent.
func formatNumber(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// trustedMarkdown returns prose Markdown from a definition with any raw
// HTML (inline tags, comments, HTML blocks) turned into literal text by a
// backslash before its '<'. goldmark would drop raw HTML from the pages
// anyway; escaping it keeps findings.md free of it too and shows the reader
// what the author wrote. The text is re-parsed until no raw HTML is left,
// because escaping an HTML block exposes its inside as inline text.
func (m *markdown) trustedMarkdown(s string) (string, error) {
	if out, ok := trusted.get(s); ok {
		return out, nil
	}
	out, err := m.neutralise(s)
	if err == nil {
		trusted.put(s, out, len(s))
	}
	return out, err
}

// trusted remembers trustedMarkdown's answers: they depend on the text
// alone (every markdown parses alike), and a releases run shows the same
// claims, conditions and caveats release after release.
var trusted = newMemo[string, string](1 << 20)

// neutralise is trustedMarkdown without the memo.
func (m *markdown) neutralise(s string) (string, error) {
	src := []byte(strings.TrimSpace(s))
	for range 20 {
		doc := m.md.Parser().Parse(text.NewReader(src))
		var at []int
		err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n := n.(type) {
			case *ast.RawHTML:
				if n.Segments.Len() > 0 {
					at = append(at, n.Segments.At(0).Start)
				}
			case *ast.HTMLBlock:
				if n.Lines().Len() > 0 {
					line := n.Lines().At(0)
					if i := bytes.IndexByte(line.Value(src), '<'); i >= 0 {
						at = append(at, line.Start+i)
					}
				}
				return ast.WalkSkipChildren, nil
			}
			return ast.WalkContinue, nil
		})
		if err != nil {
			return "", err
		}
		if len(at) == 0 {
			return string(src), nil
		}
		var out []byte
		last := 0
		for _, i := range at {
			if i < last || i >= len(src) || src[i] != '<' {
				continue
			}
			out = append(out, src[last:i]...)
			out = append(out, '\\')
			last = i
		}
		out = append(out, src[last:]...)
		src = out
	}
	return "", fmt.Errorf("cannot neutralise the raw HTML in %q", truncate(s, 60))
}

// trustedInline is trustedMarkdown for a one-line slot (such as the text
// after "When:"): line breaks become spaces, so the prose cannot end the
// paragraph it sits in.
func (m *markdown) trustedInline(s string) (string, error) {
	s = strings.Join(strings.Fields(s), " ")
	return m.trustedMarkdown(s)
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
