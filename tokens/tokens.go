// Package tokens counts how long a text is in tokens of OpenAI's two
// public byte-pair encodings, o200k_base and cl100k_base. The vocabularies
// are compiled into the binary (github.com/tiktoken-go/tokenizer), so
// counting reads nothing from disk or network.
package tokens

import (
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
// characters it is made of. Count is safe for concurrent use; it
// remembers nothing (locate remembers the counts it asked for).
func Count(text string) (findings.Tokens, error) {
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
