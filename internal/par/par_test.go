package par

import (
	"sync/atomic"
	"testing"
)

// TestForEach: every index is called exactly once, whatever the limit,
// and ForEach returns only when all calls have.
func TestForEach(t *testing.T) {
	for _, limit := range []int{0, 1, 2, 8, 100} {
		const n = 37
		var calls [n]atomic.Int32
		ForEach(n, limit, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Errorf("limit %d: fn(%d) called %d times, want 1", limit, i, c)
			}
		}
	}
	ForEach(0, 4, func(int) { t.Error("fn called for n = 0") })
}
