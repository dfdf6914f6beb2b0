package findings

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// apply rebuilds b from a and an edit script, checking the script's
// indices as it goes.
func apply(t *testing.T, a, b []string, script []edit) []string {
	t.Helper()
	var out []string
	ia, ib := 0, 0
	for _, e := range script {
		switch e.op {
		case opEqual:
			if e.a != ia || e.b != ib || a[e.a] != b[e.b] {
				t.Fatalf("bad equal %+v at a%d b%d", e, ia, ib)
			}
			out = append(out, a[e.a])
			ia, ib = ia+1, ib+1
		case opDelete:
			if e.a != ia {
				t.Fatalf("bad delete %+v at a%d", e, ia)
			}
			ia++
		case opInsert:
			if e.b != ib {
				t.Fatalf("bad insert %+v at b%d", e, ib)
			}
			out = append(out, b[e.b])
			ib++
		}
	}
	if ia != len(a) || ib != len(b) {
		t.Fatalf("script consumed a%d/%d b%d/%d", ia, len(a), ib, len(b))
	}
	return out
}

// lcs is the textbook dynamic programme, to check the script is shortest.
func lcs(a, b []string) int {
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

func TestDiffLinesShortest(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"a", "b", "c", "d"}
	for n := 0; n < 2000; n++ {
		a := make([]string, rng.Intn(12))
		b := make([]string, rng.Intn(12))
		for i := range a {
			a[i] = words[rng.Intn(len(words))]
		}
		for i := range b {
			b[i] = words[rng.Intn(len(words))]
		}
		script := diffLines(a, b)
		got := apply(t, a, b, script)
		if !reflect.DeepEqual(got, b) && !(len(got) == 0 && len(b) == 0) {
			t.Fatalf("diff(%q, %q) rebuilds %q", a, b, got)
		}
		eq := 0
		for _, e := range script {
			if e.op == opEqual {
				eq++
			}
		}
		if want := lcs(a, b); eq != want {
			t.Fatalf("diff(%q, %q) keeps %d lines, the LCS has %d", a, b, eq, want)
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
			for _, h := range UnifiedHunks(tt.old, tt.new, tt.oldStart, tt.newStart, DiffContext) {
				got = append(got, h.Header()+"|"+strings.Join(h.Lines, "|"))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("hunks:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}
