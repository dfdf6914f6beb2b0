package locate

import (
	"bytes"
	"sync"
)

// anchorCache remembers, per blob id, which of the catalog's anchors the
// blob's bytes contain, so the tree search of the next snapshot reads only
// the blobs it has not filtered before.
type anchorCache struct {
	// ids numbers the distinct anchors of the catalog's queries.
	ids   map[string]int
	texts []string

	mu    sync.Mutex
	blobs map[string]*anchorBits
}

// anchorBits has bit i set in known when anchor i was tested, and in has
// when the blob contains it.
type anchorBits struct {
	known, has []uint64
}

func newAnchorCache() *anchorCache {
	return &anchorCache{ids: map[string]int{}, blobs: map[string]*anchorBits{}}
}

// add numbers a query's anchors; called while compiling, before any use.
func (c *anchorCache) add(anchors []string) []int {
	ids := make([]int, 0, len(anchors))
	for _, a := range anchors {
		id, ok := c.ids[a]
		if !ok {
			id = len(c.texts)
			c.ids[a] = id
			c.texts = append(c.texts, a)
		}
		ids = append(ids, id)
	}
	return ids
}

// holds reports whether blob contains every anchor in ids, when the cache
// knows: known is false when some anchor is still untested and none tested
// so far is missing. Nothing is known of an empty blob id.
func (c *anchorCache) holds(blob string, ids []int) (ok, known bool) {
	if len(ids) == 0 {
		return true, true
	}
	if blob == "" || cachesOff.anchors {
		return false, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.blobs[blob]
	if b == nil {
		return false, false
	}
	known = true
	for _, id := range ids {
		w, bit := id/64, uint64(1)<<(id%64)
		switch {
		case b.known[w]&bit == 0:
			known = false
		case b.has[w]&bit == 0:
			return false, true
		}
	}
	return known, known
}

// record tests data for the anchors in ids, remembers the answers under
// blob, and reports whether data contains them all.
func (c *anchorCache) record(blob string, data []byte, ids []int) bool {
	counted.anchorTests.Add(1)
	all := true
	var hasIDs []int
	for _, id := range ids {
		if bytes.Contains(data, []byte(c.texts[id])) {
			hasIDs = append(hasIDs, id)
		} else {
			all = false
		}
	}
	if blob == "" || cachesOff.anchors {
		return all
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.blobs[blob]
	if b == nil {
		words := (len(c.texts) + 63) / 64
		b = &anchorBits{known: make([]uint64, words), has: make([]uint64, words)}
		c.blobs[blob] = b
	}
	for _, id := range ids {
		b.known[id/64] |= 1 << (id % 64)
	}
	for _, id := range hasIDs {
		b.has[id/64] |= 1 << (id % 64)
	}
	return all
}
