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
)

// This file holds the helpers that put data into Markdown. Text from the
// source (paths, facts, excerpts, problems) is untrusted: every helper that
// takes it returns Markdown that shows it literally and cannot start or end
// a construct around it. Prose from the definitions (claims, conditions,
// caveats) is trusted Markdown, but raw HTML in it is shown as text.

// mdText escapes s so that Markdown shows it literally, as inline text on
// one line, wherever on a line it is placed. Characters that can open or
// close inline markup anywhere (emphasis, code, links, images, raw HTML,
// entities, table cells, strikethrough, heading attributes, math on
// GitHub, issue references) are backslash-escaped. So are the characters
// that would start a block were the text at the beginning of a line, and
// only where they would: a list marker (-, + or digits with . or ) before
// a space or the end), a thematic break or setext underline (a text of
// only - or only =); a version such as 1.18.3 or a number such as -5 is
// left alone. Line breaks and other control characters become spaces, so
// no block can start inside it either.
func mdText(s string) string {
	// Controls become spaces before the ends are trimmed, so that none
	// leaves the text indented at the start of a line (a code block).
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if isControl(r) {
			return ' '
		}
		return r
	}, s))
	var b strings.Builder
	lead := true // still in the leading run of digits
	for i, r := range s {
		switch {
		case r < 0x80 && strings.ContainsRune("\\`*_[]<>&|~{}!#$", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case i == 0 && startsBlock(s):
			b.WriteByte('\\')
			b.WriteRune(r)
		case lead && i > 0 && (r == '.' || r == ')') && endsMarker(s[i+1:]):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
		lead = lead && r >= '0' && r <= '9'
	}
	return b.String()
}

// startsBlock reports whether s, at the beginning of a line, would start
// a bullet list item, a thematic break or a setext heading underline by
// its first character (the cases mdText escapes by that character).
func startsBlock(s string) bool {
	switch s[0] {
	case '-':
		return endsMarker(s[1:]) || strings.Trim(s, "- ") == ""
	case '+':
		return endsMarker(s[1:])
	case '=':
		return strings.Trim(s, "=") == ""
	}
	return false
}

// endsMarker reports whether rest, the text after a list marker, lets the
// marker start a list item: it is empty or starts with a space.
func endsMarker(rest string) bool {
	return rest == "" || rest[0] == ' '
}

// visible makes control characters visible as Go-style escapes, so a value
// with a line break or a NUL shows it instead of breaking the layout.
func visible(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case isControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// codeSpan returns s as an inline code span: delimited by one backtick more
// than the longest backtick run inside, padded with a space where s starts
// or ends with a backtick or a space (CommonMark strips one such pad on
// each side). Control characters are shown escaped. An empty s gives an
// empty string, since Markdown has no empty code span.
func codeSpan(s string) string {
	s = visible(s)
	if s == "" {
		return ""
	}
	delim := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' {
		pad = " "
	}
	return delim + pad + s + pad + delim
}

// tableCode is codeSpan for a GFM table cell: a pipe inside would end the
// cell, so it is written `\|`, which the table parser turns back into a
// pipe inside the code span (GFM spec, example 200).
func tableCode(s string) string {
	return strings.ReplaceAll(codeSpan(s), "|", `\|`)
}

// fence returns text as a fenced code block with the given info string.
// The fence is backticks, one longer than the longest run of backticks or
// tildes in text (and at least three), so no line of text can close it. Line
// endings become \n; a lone CR or another control character is shown as its
// Unicode control picture, so the block has exactly as many lines as the
// cited span.
func fence(info, text string) string {
	text = displayText(text)
	n := max(3, longestRun(text, '`')+1, longestRun(text, '~')+1)
	f := strings.Repeat("`", n)
	var b strings.Builder
	b.WriteString(f)
	b.WriteString(info)
	b.WriteByte('\n')
	b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(f)
	return b.String()
}

// bidiControls are the characters that reorder text when displayed
// ("Trojan Source"); an excerpt shows them by name instead.
var bidiControls = map[rune]bool{
	0x061c: true, 0x200e: true, 0x200f: true,
	0x202a: true, 0x202b: true, 0x202c: true, 0x202d: true, 0x202e: true,
	0x2066: true, 0x2067: true, 0x2068: true, 0x2069: true,
}

// displayText prepares excerpt text for display: CRLF becomes LF, a lone CR
// and other control characters except tab become their Unicode control
// pictures (U+2400 block), bidirectional controls are shown by code point,
// and a missing final newline is left missing. The hash of record is never
// computed from this text.
func displayText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	clean := true
	for _, r := range s {
		if r != '\n' && r != '\t' && isControl(r) || bidiControls[r] {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == 0x7f:
			b.WriteRune('\u2421')
		case isControl(r):
			b.WriteRune(0x2400 + r)
		case bidiControls[r]:
			fmt.Fprintf(&b, "\u27e8U+%04X\u27e9", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// linkURL makes u safe as a Markdown link destination: characters that
// Markdown or HTML would read as syntax (spaces, parentheses, angle
// brackets, quotes, backslashes, backticks, braces, pipes) and non-ASCII
// bytes are percent-encoded; a % that does not start an escape is encoded
// too.
func linkURL(u string) string {
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c == '%' && i+2 < len(u) && isHex(u[i+1]) && isHex(u[i+2]):
			b.WriteByte(c)
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			strings.IndexByte("-._~:/?#@!$&*+,;=", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

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
