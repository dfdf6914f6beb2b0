package site

// setOff switches the memo off or on again, forgetting what it holds.
func (m *memo[K, V]) setOff(off bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.off, m.cur, m.old, m.size = off, nil, nil, 0
}
