package diff

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// applyHunks rebuilds the new excerpt from the old one and the hunks,
// checking each hunk's start lines and counts against the excerpts.
func applyHunks(t *testing.T, old string, oldStart, newStart int, hunks []Hunk) string {
	t.Helper()
	a := strings.SplitAfter(old, "\n")
	if a[len(a)-1] == "" {
		a = a[:len(a)-1]
	}
	var out strings.Builder
	next := 0  // index in a of the next line not yet copied
	shift := 0 // lines added minus lines deleted so far
	for _, h := range hunks {
		first := h.OldStart - oldStart // index in a of the hunk's first old line
		if h.OldLines == 0 {
			first++
		}
		if wantNew := newStart + (h.OldStart - oldStart) + shift; h.NewLines > 0 && h.OldLines > 0 && h.NewStart != wantNew {
			t.Fatalf("hunk %s: new start %d, want %d", h.Header(), h.NewStart, wantNew)
		}
		for ; next < first; next++ {
			out.WriteString(a[next])
		}
		nOld, nNew := 0, 0
		for i, l := range h.Lines {
			if l == noNewline {
				continue
			}
			text := l[1:]
			if i+1 >= len(h.Lines) || h.Lines[i+1] != noNewline {
				text += "\n"
			}
			switch l[0] {
			case ' ':
				if a[next] != text {
					t.Fatalf("hunk %s: context %q, old line is %q", h.Header(), text, a[next])
				}
				out.WriteString(text)
				next, nOld, nNew = next+1, nOld+1, nNew+1
			case '-':
				if a[next] != text {
					t.Fatalf("hunk %s: deletes %q, old line is %q", h.Header(), text, a[next])
				}
				next, nOld = next+1, nOld+1
			case '+':
				out.WriteString(text)
				nNew++
			}
		}
		if nOld != h.OldLines || nNew != h.NewLines {
			t.Fatalf("hunk %s holds %d old and %d new lines", h.Header(), nOld, nNew)
		}
		shift += h.NewLines - h.OldLines
	}
	for ; next < len(a); next++ {
		out.WriteString(a[next])
	}
	return out.String()
}

// lcsLen is the textbook dynamic programme, to check the diff is shortest.
func lcsLen(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

// TestUnifiedHunksRandom checks on random short excerpts that the hunks
// rebuild the new excerpt from the old one at the right line numbers, and
// that with unlimited context they keep as many lines as the longest
// common subsequence.
func TestUnifiedHunksRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"a\n", "b\n", "c\n", "d\n"}
	for n := 0; n < 2000; n++ {
		a := make([]string, rng.Intn(12))
		b := make([]string, rng.Intn(12))
		for i := range a {
			a[i] = words[rng.Intn(len(words))]
		}
		for i := range b {
			b[i] = words[rng.Intn(len(words))]
		}
		old, new := strings.Join(a, ""), strings.Join(b, "")
		oldStart, newStart := 1+rng.Intn(50), 1+rng.Intn(50)
		if got := applyHunks(t, old, oldStart, newStart, UnifiedHunks(old, new, oldStart, newStart, Context)); got != new {
			t.Fatalf("hunks of %q → %q rebuild %q", old, new, got)
		}
		kept := 0
		for _, h := range UnifiedHunks(old, new, 1, 1, 100) {
			for _, l := range h.Lines {
				if l[0] == ' ' {
					kept++
				}
			}
		}
		if old == new {
			kept = len(a)
		}
		if want := lcsLen(a, b); kept != want {
			t.Fatalf("diff of %q → %q keeps %d lines, the LCS has %d", old, new, kept, want)
		}
	}
}

func lines(n, from int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("line " + string(rune('A'+from+i)) + "\n")
	}
	return b.String()
}

func TestUnifiedHunks(t *testing.T) {
	base := lines(20, 0)
	tests := []struct {
		name               string
		old, new           string
		oldStart, newStart int
		want               []string // header, then lines, per hunk joined by |
	}{
		{
			name: "identical", old: base, new: base, oldStart: 1, newStart: 1,
		},
		{
			name: "one line changed in the middle, real line numbers",
			old:  base, new: strings.Replace(base, "line K\n", "line K2\n", 1),
			oldStart: 100, newStart: 103,
			want: []string{"@@ -107,7 +110,7 @@| line H| line I| line J|-line K|+line K2| line L| line M| line N"},
		},
		{
			name: "insert at the top has no context before",
			old:  "a\nb\nc\nd\ne\n", new: "x\na\nb\nc\nd\ne\n", oldStart: 10, newStart: 10,
			want: []string{"@@ -10,3 +10,4 @@|+x| a| b| c"},
		},
		{
			name: "pure insertion into empty old side",
			old:  "", new: "x\n", oldStart: 5, newStart: 5,
			want: []string{"@@ -4,0 +5 @@|+x"},
		},
		{
			name: "two far changes give two hunks",
			old:  base, new: strings.Replace(strings.Replace(base, "line B\n", "", 1), "line S\n", "line S!\n", 1),
			oldStart: 1, newStart: 1,
			want: []string{
				"@@ -1,5 +1,4 @@| line A|-line B| line C| line D| line E",
				"@@ -16,5 +15,5 @@| line P| line Q| line R|-line S|+line S!| line T",
			},
		},
		{
			name: "changes six lines apart merge",
			old:  base, new: strings.Replace(strings.Replace(base, "line C\n", "c\n", 1), "line J\n", "j\n", 1),
			oldStart: 1, newStart: 1,
			want: []string{"@@ -1,13 +1,13 @@| line A| line B|-line C|+c| line D| line E| line F| line G| line H| line I|-line J|+j| line K| line L| line M"},
		},
		{
			name: "missing final newline is marked",
			old:  "a\nb", new: "a\nb\n", oldStart: 1, newStart: 1,
			want: []string{`@@ -1,2 +1,2 @@| a|-b|\ No newline at end of file|+b`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, h := range UnifiedHunks(tt.old, tt.new, tt.oldStart, tt.newStart, Context) {
				got = append(got, h.Header()+"|"+strings.Join(h.Lines, "|"))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("hunks:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}
