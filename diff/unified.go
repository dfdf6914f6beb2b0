package diff

import (
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/aymanbagabas/go-udiff/lcs"
	"github.com/keyfindings/keyfindings/findings"
)

// Excerpt diffs come from go-udiff (gopls' diff package): its edits and
// hunks, renumbered here to the excerpts' real source lines.

// Hunk is one hunk of a unified diff. Starts are real source line numbers;
// as in git, a side with no lines gives the line before the hunk.
type Hunk struct {
	OldStart int `json:"old_start"`
	OldLines int `json:"old_lines"`
	NewStart int `json:"new_start"`
	NewLines int `json:"new_lines"`
	// Lines are the hunk's lines, each prefixed by ' ', '-' or '+', without
	// their newline; a line that had none in the source is followed by
	// `\ No newline at end of file`.
	Lines []string `json:"lines"`
}

// Header is the hunk's `@@ -a,b +c,d @@` line.
func (h Hunk) Header() string {
	return fmt.Sprintf("@@ -%s +%s @@", hunkRange(h.OldStart, h.OldLines), hunkRange(h.NewStart, h.NewLines))
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// noNewline marks a last line without a terminating newline.
const noNewline = `\ No newline at end of file`

// UnifiedHunks diffs two excerpts whose first lines are source lines
// oldStart and newStart, with the given lines of context. Hunks closer
// than twice the context merge, as in git.
func UnifiedHunks(oldText, newText string, oldStart, newStart, context int) []Hunk {
	edits := udiff.Lines(oldText, newText)
	u, err := udiff.ToUnifiedDiff("a", "b", oldText, edits, context)
	if err != nil {
		// Cannot happen: the edits were computed from oldText.
		panic(fmt.Sprintf("unified diff of consistent edits: %v", err))
	}
	hunks := make([]Hunk, 0, len(u.Hunks))
	for _, uh := range u.Hunks {
		// udiff numbers lines from 1 within each text.
		h := Hunk{OldStart: oldStart - 1 + uh.FromLine, NewStart: newStart - 1 + uh.ToLine}
		for _, l := range uh.Lines {
			prefix := " "
			switch l.Kind {
			case udiff.Delete:
				prefix = "-"
				h.OldLines++
			case udiff.Insert:
				prefix = "+"
				h.NewLines++
			default:
				h.OldLines++
				h.NewLines++
			}
			content, hasNewline := strings.CutSuffix(l.Content, "\n")
			h.Lines = append(h.Lines, prefix+content)
			if !hasNewline {
				h.Lines = append(h.Lines, noNewline)
			}
		}
		if h.OldLines == 0 {
			h.OldStart--
		}
		if h.NewLines == 0 {
			h.NewStart--
		}
		hunks = append(hunks, h)
	}
	return hunks
}

// itemDiff diffs two lists element by element: each element as compact
// JSON, prefixed ' ' (in both), '-' (only in a) or '+' (only in b).
func itemDiff(a, b []any) []string {
	ea, eb := make([]string, len(a)), make([]string, len(b))
	for i, v := range a {
		ea[i] = findings.CompactJSON(v)
	}
	for i, v := range b {
		eb[i] = findings.CompactJSON(v)
	}
	var out []string
	i := 0
	for _, d := range lcs.DiffLines(ea, eb) {
		for ; i < d.Start; i++ {
			out = append(out, " "+ea[i])
		}
		for _, e := range ea[d.Start:d.End] {
			out = append(out, "-"+e)
		}
		for _, e := range eb[d.ReplStart:d.ReplEnd] {
			out = append(out, "+"+e)
		}
		i = d.End
	}
	for ; i < len(ea); i++ {
		out = append(out, " "+ea[i])
	}
	return out
}
