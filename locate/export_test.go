package locate

import (
	"fmt"

	"github.com/keyfindings/keyfindings/source"
)

// For caches_test.go (package locate_test, which imports history).

// SetCacheOff switches the cache that name names off (see cachesOff), or
// on again.
func SetCacheOff(name string, off bool) error {
	p, ok := map[string]*bool{
		"results": &cachesOff.results, "anchors": &cachesOff.anchors, "misses": &cachesOff.misses,
		"parse-share": &cachesOff.parseShare, "runs": &cachesOff.runs,
		"lineage": &cachesOff.lineage, "tokens": &cachesOff.tokens,
		"root-only": &cachesOff.rootOnly,
	}[name]
	if !ok {
		return fmt.Errorf("no cache %q to switch", name)
	}
	*p = off
	return nil
}

// Releases27 are opencode's releases v1.16.0..v1.18.3.
const Releases27 = releases27

// Counts returns the work counted so far (see counted): files parsed,
// query groups run, blobs tested for anchors, texts tokenized.
func Counts() [4]int64 {
	return [4]int64{counted.parses.Load(), counted.queryRuns.Load(), counted.anchorTests.Load(), counted.tokenCounts.Load()}
}

// ForgetTokenCounts makes this process forget the token counts it
// remembered, as a new process starts.
func ForgetTokenCounts() { clear(tokenCounts.m) }

// CountTokens is countTokens.
func CountTokens(text string) error {
	_, err := countTokens(text)
	return err
}

// Parse parses f as the Extractor does, and frees the tree.
func Parse(f *source.File) error {
	pf, err := parseFile(f)
	if err == nil {
		pf.close()
	}
	return err
}

// ForgetCompiled makes this process forget the queries it compiled, as a
// new process starts.
func ForgetCompiled() { compiledQueries.Clear() }
