package site

// Exported forms of this package's Markdown helpers, for other packages
// that write Markdown from source text (keyfindings log): one set of
// escaping rules for every Markdown keyfindings writes.

// MarkdownText returns s escaped so that Markdown shows it literally, as
// inline text on one line (see mdText).
func MarkdownText(s string) string { return mdText(s) }

// CodeSpan returns s as an inline code span that nothing inside can close
// (see codeSpan); "" for an empty s.
func CodeSpan(s string) string { return codeSpan(s) }

// TableCode is CodeSpan for a GFM table cell (see tableCode).
func TableCode(s string) string { return tableCode(s) }

// Fence returns text as a fenced code block that no line of text can close
// (see fence).
func Fence(info, text string) string { return fence(info, text) }

// Visible shows control characters in s as Go-style escapes (see visible),
// for one-line terminal output of source text.
func Visible(s string) string { return visible(s) }
