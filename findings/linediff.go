package findings

import (
	"fmt"
	"strings"
)

// Line diffs for excerpts: Myers' O(ND) shortest edit script (E. W. Myers,
// "An O(ND) Difference Algorithm and Its Variations", 1986). Excerpts are
// short and edits between releases are few, so the trace kept for the
// backtrack (O(D²)) stays small; common leading and trailing lines are
// trimmed first.

// editOp is one step of an edit script.
type editOp int

const (
	opEqual editOp = iota
	opDelete
	opInsert
)

// edit is one line of an edit script: a line of a (delete), of b (insert)
// or of both (equal); a and b index the lines, -1 where not applicable.
type edit struct {
	op   editOp
	a, b int
}

// diffLines returns a shortest edit script turning a into b.
func diffLines(a, b []string) []edit {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []edit
	for i := 0; i < pre; i++ {
		out = append(out, edit{opEqual, i, i})
	}
	for _, e := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		if e.a >= 0 {
			e.a += pre
		}
		if e.b >= 0 {
			e.b += pre
		}
		out = append(out, e)
	}
	for i := 0; i < suf; i++ {
		out = append(out, edit{opEqual, len(a) - suf + i, len(b) - suf + i})
	}
	return out
}

// myers is the greedy forward algorithm with a backtrack over the saved
// frontiers. trace[d] holds the frontier before round d for diagonals
// -(d+1)..d+1, which is all the backtrack of round d reads.
func myers(a, b []string) []edit {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil
	}
	max := n + m
	off := max + 1
	v := make([]int, 2*max+3)
	var trace [][]int
	found := false
	for d := 0; d <= max && !found; d++ {
		snap := make([]int, 2*d+3)
		copy(snap, v[off-d-1:off+d+2])
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
	}
	var rev []edit
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		at := func(k int) int { return trace[d][k+d+1] }
		k := x - y
		var prevK int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, edit{opEqual, x, y})
		}
		if d > 0 {
			if x == prevX {
				rev = append(rev, edit{opInsert, -1, prevY})
			} else {
				rev = append(rev, edit{opDelete, prevX, -1})
			}
		}
		x, y = prevX, prevY
	}
	out := make([]edit, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}

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

// splitKeep splits text into lines that keep their "\n", so a last line
// without one differs from the same line with one (as in git).
func splitKeep(text string) []string {
	var lines []string
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			lines = append(lines, text)
			break
		}
		lines = append(lines, text[:i+1])
		text = text[i+1:]
	}
	return lines
}

// UnifiedHunks diffs two excerpts whose first lines are source lines
// oldStart and newStart, with the given lines of context.
func UnifiedHunks(oldText, newText string, oldStart, newStart, context int) []Hunk {
	a, b := splitKeep(oldText), splitKeep(newText)
	script := diffLines(a, b)
	var hunks []Hunk
	i := 0
	for i < len(script) {
		// Find the next change.
		for i < len(script) && script[i].op == opEqual {
			i++
		}
		if i == len(script) {
			break
		}
		from := i - context
		if from < 0 {
			from = 0
		}
		// Extend while the next change is within 2*context equal lines.
		to := i
		for to < len(script) {
			for to < len(script) && script[to].op != opEqual {
				to++
			}
			eq := to
			for eq < len(script) && script[eq].op == opEqual {
				eq++
			}
			if eq == len(script) || eq-to > 2*context {
				break
			}
			to = eq
		}
		end := to + context
		if end > len(script) {
			end = len(script)
		}
		hunks = append(hunks, buildHunk(script[from:end], a, b, oldStart, newStart, script, from))
		i = end
	}
	return hunks
}

func buildHunk(ops []edit, a, b []string, oldStart, newStart int, script []edit, from int) Hunk {
	// The hunk starts after the lines of a and b consumed before it.
	oa, ob := 0, 0
	for _, e := range script[:from] {
		if e.op != opInsert {
			oa++
		}
		if e.op != opDelete {
			ob++
		}
	}
	h := Hunk{OldStart: oldStart + oa, NewStart: newStart + ob}
	add := func(prefix, line string) {
		if strings.HasSuffix(line, "\n") {
			h.Lines = append(h.Lines, prefix+strings.TrimSuffix(line, "\n"))
			return
		}
		h.Lines = append(h.Lines, prefix+line, noNewline)
	}
	for _, e := range ops {
		switch e.op {
		case opEqual:
			add(" ", a[e.a])
			h.OldLines++
			h.NewLines++
		case opDelete:
			add("-", a[e.a])
			h.OldLines++
		case opInsert:
			add("+", b[e.b])
			h.NewLines++
		}
	}
	if h.OldLines == 0 {
		h.OldStart--
	}
	if h.NewLines == 0 {
		h.NewStart--
	}
	return h
}
