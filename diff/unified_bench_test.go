package diff

import (
	"fmt"
	"strings"
	"testing"
)

// benchExcerpts is a pair of large excerpts (n lines) that differ in one
// line of every 50, as a long function edited across a release.
func benchExcerpts(n int) (string, string) {
	var a, b strings.Builder
	for i := 0; i < n; i++ {
		line := fmt.Sprintf("  const value%d = compute(%d, options) // step %d\n", i, i, i)
		a.WriteString(line)
		if i%50 == 25 {
			line = fmt.Sprintf("  const value%d = computeAgain(%d) // changed\n", i, i)
		}
		b.WriteString(line)
	}
	return a.String(), b.String()
}

func BenchmarkUnifiedHunks(b *testing.B) {
	old, new := benchExcerpts(5000)
	b.ReportAllocs()
	for b.Loop() {
		UnifiedHunks(old, new, 100, 120, Context)
	}
}

func BenchmarkUnifiedHunksSmall(b *testing.B) {
	old, new := benchExcerpts(200)
	b.ReportAllocs()
	for b.Loop() {
		UnifiedHunks(old, new, 100, 120, Context)
	}
}
