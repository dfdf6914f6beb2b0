// Package tokens counts how long a text is in tokens of OpenAI's two
// public byte-pair encodings, o200k_base and cl100k_base. The vocabularies
// are compiled into the binary (github.com/tiktoken-go/tokenizer), so
// counting reads nothing from disk or network.
package tokens

import (
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/tiktoken-go/tokenizer"

	"github.com/keyfindings/keyfindings/findings"
)

// codecs builds both encodings once, on the first count: their
// vocabularies take tens of milliseconds to load, and a build whose
// records all come from the cache counts nothing.
var codecs = sync.OnceValues(func() ([2]tokenizer.Codec, error) {
	var cs [2]tokenizer.Codec
	for i, e := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		c, err := tokenizer.Get(e)
		if err != nil {
			return cs, fmt.Errorf("tokenizer %s: %w", e, err)
		}
		cs[i] = c
	}
	return cs, nil
})

// Count returns text's length in tokens of o200k_base and cl100k_base.
// Text is counted as ordinary text, as tiktoken's encode_ordinary does: the
// spelling of a special token such as <|endoftext|> counts as the
// characters it is made of. Count is safe for concurrent use.
//
// Counts are remembered by the text's SHA-256 (a bounded set): a log or a
// run of releases counts the same prompt file at commit after commit.
func Count(text string) (findings.Tokens, error) {
	key := sha256.Sum256([]byte(text))
	if t, ok := memo.get(key); ok {
		return t, nil
	}
	t, err := count(text)
	if err == nil {
		memo.put(key, t)
	}
	return t, err
}

// memoSize bounds the remembered counts (about 50 bytes each).
const memoSize = 1 << 14

// counted remembers counts by text hash; it forgets all when full.
type counted struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]findings.Tokens
}

var memo = &counted{m: map[[sha256.Size]byte]findings.Tokens{}}

func (c *counted) get(k [sha256.Size]byte) (findings.Tokens, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.m[k]
	return t, ok
}

func (c *counted) put(k [sha256.Size]byte, t findings.Tokens) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= memoSize {
		clear(c.m)
	}
	c.m[k] = t
}

// count tokenizes text with both encodings.
func count(text string) (findings.Tokens, error) {
	cs, err := codecs()
	if err != nil {
		return findings.Tokens{}, err
	}
	o, err := cs[0].Count(text)
	if err != nil {
		return findings.Tokens{}, fmt.Errorf("count o200k_base tokens: %w", err)
	}
	c, err := cs[1].Count(text)
	if err != nil {
		return findings.Tokens{}, fmt.Errorf("count cl100k_base tokens: %w", err)
	}
	return findings.Tokens{O200kBase: o, Cl100kBase: c}, nil
}
