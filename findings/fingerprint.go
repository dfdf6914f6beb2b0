package findings

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Fingerprint is the SHA-256 of the catalog's definitions as data, in
// catalog order: two catalogs with the same fingerprint locate and
// describe findings alike, wherever their files live. It keys reuse of
// earlier results (the releases command's manifest).
func (c *Catalog) Fingerprint() (string, error) {
	h := sha256.New()
	for _, d := range c.Definitions {
		// Every field that reaches extraction or the records has a yaml
		// tag; the file name and position do not.
		data, err := yaml.Marshal(d)
		if err != nil {
			return "", fmt.Errorf("fingerprint definition %s: %w", d.ID, err)
		}
		fmt.Fprintf(h, "%d\n", len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
