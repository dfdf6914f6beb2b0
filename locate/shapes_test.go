package locate

import (
	"bytes"
	"os"
	"testing"

	"github.com/keyfindings/keyfindings/source"

	"github.com/keyfindings/keyfindings/findings"
)

// TestShapesCached: records of a definition with shapes come out the same
// from a fresh Extractor, from one reused over trees of different shapes,
// and from a later Extractor reading the disk cache; the record names the
// shape of its own tree every time.
func TestShapesCached(t *testing.T) {
	const defs = "../testdata/shapes/defs"
	trees := []string{"module", "namespace", "module", "ambiguous", "namespace"}
	cat, err := findings.Load(os.DirFS(defs), defs)
	if err != nil {
		t.Fatal(err)
	}
	extractAll := func(x *Extractor) [][]byte {
		var out [][]byte
		for _, tree := range trees {
			res, err := x.Extract(source.NewDirSnapshot("../testdata/shapes/"+tree), Meta{})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, marshal(t, res))
		}
		return out
	}
	var fresh [][]byte
	for _, tree := range trees {
		x := loadDefs(t, defs)
		res, err := x.Extract(source.NewDirSnapshot("../testdata/shapes/"+tree), Meta{})
		if err != nil {
			t.Fatal(err)
		}
		fresh = append(fresh, marshal(t, res))
	}
	wantShape := map[string]string{"module": `"shape": "module"`, "namespace": `"shape": "namespace"`, "ambiguous": `"shape": "module"`}
	for i, tree := range trees {
		if !bytes.Contains(fresh[i], []byte(wantShape[tree])) {
			t.Errorf("%s: record does not carry %s", tree, wantShape[tree])
		}
	}
	dir := t.TempDir()
	for _, run := range []string{"one Extractor over all trees", "a later Extractor, from the disk cache"} {
		x, err := CompileWith(cat, CompileOptions{CacheDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		got := extractAll(x)
		for i := range trees {
			if !bytes.Equal(got[i], fresh[i]) {
				t.Errorf("%s, %s: the document differs from a fresh Extractor's:\n%s\nwant\n%s", run, trees[i], got[i], fresh[i])
			}
		}
		if run != "one Extractor over all trees" && x.Stats().Located != 0 {
			t.Errorf("%s: %d definitions located afresh, want all from the cache", run, x.Stats().Located)
		}
	}
}
