package locate

import (
	"crypto/sha256"
	"sync"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/tokens"
)

// countTokens is tokens.Count, remembered by the text's SHA-256 (a bounded
// set, for the process): a run of releases or a log locates a model-text
// definition again whenever one of its files changes, and counts its
// unchanged texts again.
func countTokens(text string) (findings.Tokens, error) {
	key := sha256.Sum256([]byte(text))
	if t, ok := tokenCounts.get(key); ok && !cachesOff.tokens {
		return t, nil
	}
	counted.tokenCounts.Add(1)
	t, err := tokens.Count(text)
	if err == nil {
		tokenCounts.put(key, t)
	}
	return t, err
}

// maxTokenCounts bounds the remembered counts (about 50 bytes each).
const maxTokenCounts = 1 << 14

// tokenMemo remembers counts by text hash; it forgets all when full.
type tokenMemo struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]findings.Tokens
}

var tokenCounts = &tokenMemo{m: map[[sha256.Size]byte]findings.Tokens{}}

func (c *tokenMemo) get(k [sha256.Size]byte) (findings.Tokens, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.m[k]
	return t, ok
}

func (c *tokenMemo) put(k [sha256.Size]byte, t findings.Tokens) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxTokenCounts {
		clear(c.m)
	}
	c.m[k] = t
}
