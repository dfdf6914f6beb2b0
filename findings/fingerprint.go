package findings

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sync"

	"github.com/keyfindings/keyfindings/internal/par"
	"go.yaml.in/yaml/v3"
)

// Fingerprint is the SHA-256 of the catalog's definitions as data, in
// catalog order: two catalogs with the same fingerprint locate and
// describe findings alike, wherever their files live. It keys reuse of
// earlier results (the releases command's manifest).
func (c *Catalog) Fingerprint() (string, error) {
	enc, err := c.Encodings()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, data := range enc {
		fmt.Fprintf(h, "%d\n", len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Encodings returns each definition as data, in catalog order: its YAML,
// which holds every field that reaches extraction or the records (each
// has a yaml tag; the file name and position do not). Fingerprint hashes
// them, and locate keys a definition's cached results by its own. They
// are computed once, on all cores (a catalog of 80 definitions takes some
// 20 ms of CPU), and again only when Definitions is changed: a definition
// edited in place after loading is not noticed (definitions are data,
// read once and not changed).
func (c *Catalog) Encodings() ([][]byte, error) {
	c.enc.mu.Lock()
	defer c.enc.mu.Unlock()
	if c.enc.data != nil && slices.Equal(c.enc.defs, c.Definitions) {
		return c.enc.data, nil
	}
	defs := slices.Clone(c.Definitions)
	data := make([][]byte, len(defs))
	errs := make([]error, len(defs))
	par.ForEach(len(defs), par.Workers(), func(i int) {
		data[i], errs[i] = yaml.Marshal(defs[i])
	})
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("definition %s as data: %w", defs[i].ID, err)
		}
	}
	c.enc.defs, c.enc.data = defs, data
	return data, nil
}

// encodings remembers a catalog's Encodings with the definitions they
// are of.
type encodings struct {
	mu   sync.Mutex
	defs []*Definition
	data [][]byte
}
