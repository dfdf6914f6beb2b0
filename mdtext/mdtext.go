// Package mdtext writes untrusted text (paths, facts, excerpts, problems
// read from a source tree) as Markdown that shows it literally: every
// function returns Markdown that cannot start or end a construct around
// the text, nor put markup in it. The site's pages and findings.md use
// it, and so can any other writer of Markdown; the site's tests check it
// through goldmark, by round trips and fuzzing (site FuzzMdText,
// FuzzFence, FuzzExcerptHTML).
package mdtext

import (
	"fmt"
	"strings"
)

// Text escapes s so that Markdown shows it literally, as inline text on
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
func Text(s string) string {
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
// its first character (the cases Text escapes by that character).
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

// Visible makes control characters Visible as Go-style escapes, so a value
// with a line break or a NUL shows it instead of breaking the layout.
func Visible(s string) string {
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

// LongestRun returns the length of the longest run of c in s.
func LongestRun(s string, c byte) int {
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

// CodeSpan returns s as an inline code span: delimited by one backtick more
// than the longest backtick run inside, padded with a space where s starts
// or ends with a backtick or a space (CommonMark strips one such pad on
// each side). Control characters are shown escaped. An empty s gives an
// empty string, since Markdown has no empty code span.
func CodeSpan(s string) string {
	s = Visible(s)
	if s == "" {
		return ""
	}
	delim := strings.Repeat("`", LongestRun(s, '`')+1)
	pad := ""
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' {
		pad = " "
	}
	return delim + pad + s + pad + delim
}

// TableCode is CodeSpan for a GFM table cell: a pipe inside would end the
// cell, so it is written `\|`, which the table parser turns back into a
// pipe inside the code span (GFM spec, example 200).
func TableCode(s string) string {
	return strings.ReplaceAll(CodeSpan(s), "|", `\|`)
}

// Fence returns text as a fenced code block with the given info string.
// The fence is backticks, one longer than the longest run of backticks or
// tildes in text (and at least three), so no line of text can close it. Line
// endings become \n; a lone CR or another control character is shown as its
// Unicode control picture, so the block has exactly as many lines as the
// cited span.
func Fence(info, text string) string {
	text = Display(text)
	n := max(3, LongestRun(text, '`')+1, LongestRun(text, '~')+1)
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

// Display prepares excerpt text for display: CRLF becomes LF, a lone CR
// and other control characters except tab become their Unicode control
// pictures (U+2400 block), bidirectional controls are shown by code point,
// and a missing final newline is left missing. The hash of record is never
// computed from this text.
func Display(s string) string {
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

// LinkURL makes u safe as a Markdown link destination: characters that
// Markdown or HTML would read as syntax (spaces, parentheses, angle
// brackets, quotes, backslashes, backticks, braces, pipes) and non-ASCII
// bytes are percent-encoded; a % that does not start an escape is encoded
// too.
func LinkURL(u string) string {
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

// OneLine folds every run of white space in s, line breaks included, into
// one space and trims both ends: a multi-line message or title as one line.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Clip cuts s to its first 80 bytes, marking the cut with an ellipsis, and
// replaces invalid UTF-8: input quoted in a one-line message.
func Clip(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// Capitalize upper-cases s's first letter when it is an ASCII lower-case
// one: a note that starts a sentence.
func Capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
