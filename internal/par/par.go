// Package par runs independent pieces of CPU-bound work on several
// goroutines, with results written into slots so that the outcome does
// not depend on scheduling.
package par

import (
	"runtime"
	"sync"
)

// Workers is how many goroutines CPU-bound work runs on at once: one per
// CPU the Go scheduler may use.
func Workers() int {
	return max(1, runtime.GOMAXPROCS(0))
}

// ForEach calls fn(0) … fn(n-1) on at most limit goroutines and returns
// when all calls have. Callers write results into slots indexed by i, so
// the outcome does not depend on scheduling.
func ForEach(n, limit int, fn func(i int)) {
	if limit > n {
		limit = n
	}
	if limit <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < limit; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
