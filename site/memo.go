package site

import "sync"

// memo remembers values of a pure function by key, within a bound: two
// generations, each holding values of a total cost (the caller's measure,
// such as the bytes of the key's text) of at most max. When the newer is
// full it becomes the older and the older is dropped; a value found in
// the older moves to the newer. So what rendering one release after
// another keeps using stays, and memory stays bounded however many
// releases are rendered. Values are shared by every caller: they must
// not be changed.
type memo[K comparable, V any] struct {
	mu       sync.Mutex
	cur, old map[K]memoValue[V]
	// size is the cost of the values cur holds.
	size, max int
	// off switches the memo off (tests compare output without it).
	off bool
}

type memoValue[V any] struct {
	v    V
	cost int
}

func newMemo[K comparable, V any](max int) *memo[K, V] { return &memo[K, V]{max: max} }

func (m *memo[K, V]) get(k K) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.off {
		var zero V
		return zero, false
	}
	if e, ok := m.cur[k]; ok {
		return e.v, true
	}
	e, ok := m.old[k]
	if ok {
		m.add(k, e)
	}
	return e.v, ok
}

func (m *memo[K, V]) put(k K, v V, cost int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.off {
		m.add(k, memoValue[V]{v, cost})
	}
}

// add puts e into the newer generation, turning it into the older one
// first when it is full; m.mu is held.
func (m *memo[K, V]) add(k K, e memoValue[V]) {
	if m.cur == nil || m.size+e.cost > m.max {
		m.old, m.cur, m.size = m.cur, map[K]memoValue[V]{}, 0
	}
	if _, ok := m.cur[k]; !ok {
		m.cur[k] = e
		m.size += e.cost
	}
}
