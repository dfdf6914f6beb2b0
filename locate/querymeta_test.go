package locate

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

var update = flag.Bool("update", false, "rewrite querymeta.json from the built-in catalog")

// TestEmbeddedQueryMeta checks that querymeta.json holds exactly what
// compiling each query text of the built-in catalog alone tells, with the
// grammar of this build: a build that trusted a stale entry would run a
// query with other predicates than its text says.
func TestEmbeddedQueryMeta(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	want, err := embeddedMetaFor(catalogQueries(cat))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("querymeta.json", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(embeddedMetaJSON, want) {
		t.Fatal("locate/querymeta.json is not what the built-in catalog's queries compile to; run: go test ./locate -run TestEmbeddedQueryMeta -update")
	}
}

// TestFirstBuildCompilesWhatRuns builds the catalog fixture with the
// built-in catalog from a process that compiled nothing: the Extractor
// compiles no query up front, a shape that is never tried (an older one,
// when a newer one located the record) is never compiled, and the records
// are byte for byte those of an Extractor that compiled every query first.
func TestFirstBuildCompilesWhatRuns(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	compiledQueries.Clear()
	t.Cleanup(compiledQueries.Clear)
	before := tsCompiles.Load()
	x, err := Compile(cat)
	if err != nil {
		t.Fatal(err)
	}
	if n := tsCompiles.Load() - before; n != 0 {
		t.Fatalf("Compile of the built-in catalog took %d tree-sitter compiles, want none", n)
	}
	lazy := extractDir(t, x, catalogTree)
	if tsCompiles.Load() == before {
		t.Fatal("extracting compiled nothing: the test checks nothing")
	}
	untried := 0
	for _, cd := range x.defs {
		var shape string
		for _, r := range lazy.Findings {
			if r.ID == cd.def.ID && r.Location != nil {
				shape = r.Shape
			}
		}
		if shape == "" || shape != cd.shapes[0].def.ShapeName {
			continue
		}
		for _, s := range cd.shapes[1:] {
			if s.query.group.text == cd.shapes[0].query.group.text {
				continue // one text serves both shapes
			}
			s.query.group.mu.Lock()
			n := len(s.query.group.compiled)
			s.query.group.mu.Unlock()
			if n != 0 {
				t.Errorf("%s: shape %q was compiled although shape %q located the record first", cd.def.ID, s.def.ShapeName, shape)
			}
			untried++
		}
	}
	if untried == 0 {
		t.Fatal("no definition located by its first shape has another: the test checks nothing")
	}

	withoutEmbeddedMeta(t)
	eager, err := Compile(cat)
	if err != nil {
		t.Fatal(err)
	}
	want := extractDir(t, eager, catalogTree)
	got, _ := json.Marshal(lazy)
	w, _ := json.Marshal(want)
	if !bytes.Equal(got, w) {
		t.Errorf("records differ between queries compiled when they run and compiled up front")
	}
}

// embeddedMetaFor is the content of querymeta.json for texts, each
// compiled alone.
func embeddedMetaFor(texts []string) ([]byte, error) {
	f := embeddedMetaFile{Format: queryMetaFormat, Queries: map[string]embeddedMeta{}}
	for _, t := range texts {
		q, err := compileQueryText(t)
		if err != nil {
			return nil, err
		}
		m := q.meta()
		f.Queries[textKey(t)] = embeddedMeta{Captures: m.Captures, Patterns: m.Patterns}
	}
	data, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}
