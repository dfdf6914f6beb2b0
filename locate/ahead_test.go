package locate

import (
	"strings"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/keyfindings/keyfindings/findings"
)

// compiledFor reports whether g is compiled for lang.
func compiledFor(g *queryGroup, lang *sitter.Language) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.compiled[lang] != nil
}

// TestCompileAhead: once a walk starts, the groups each definition of the
// built-in catalog runs first are compiled in the background, and no
// other; stopped first, with a record cached (in memory or on disk: not a
// first build) or with every CPU token taken, nothing is.
func TestCompileAhead(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	fresh := func() *Extractor {
		compiledQueries.Clear()
		x, err := Compile(cat)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	t.Cleanup(compiledQueries.Clear)

	x := fresh()
	first := x.firstGroups()
	if len(first) < len(cat.Definitions) {
		t.Fatalf("%d first groups for %d definitions", len(first), len(cat.Definitions))
	}
	a := &ahead{x: x}
	a.walking()
	select {
	case <-a.done:
	case <-time.After(time.Minute):
		t.Fatal("compiling ahead did not end")
	}
	a.stop()
	isFirst := map[*queryGroup]bool{}
	for _, g := range first {
		isFirst[g.group] = true
		if !compiledFor(g.group, g.lang) {
			t.Errorf("group %.60q not compiled ahead", g.group.text)
		}
	}
	for _, cd := range x.defs {
		for _, s := range cd.shapes[1:] {
			if g := s.query.group; !isFirst[g] && (compiledFor(g, langTS) || compiledFor(g, langTSX)) {
				t.Errorf("%s: an older shape's group was compiled ahead", cd.def.ID)
			}
		}
	}

	before := tsCompiles.Load()
	x = fresh()
	a = &ahead{x: x}
	a.stop()
	a.walking() // a walk after the placements: too late to help
	if a.done != nil || tsCompiles.Load() != before {
		t.Error("compiled ahead after stop")
	}
	for _, disk := range []bool{false, true} {
		x = fresh()
		if disk {
			x.results.disk = newDiskCache(t.TempDir())
			x.results.disk.store(strings.Repeat("ab", 32), nil)
		} else {
			x.results.entry("a record of an earlier Extract")
		}
		a = &ahead{x: x}
		a.walking()
		a.stop()
		if a.done != nil || tsCompiles.Load() != before {
			t.Errorf("compiled ahead with a record cached (on disk: %v)", disk)
		}
	}
	x = fresh()
	for range cap(x.cpu) {
		x.cpu <- struct{}{}
	}
	a = &ahead{x: x}
	a.walking()
	a.stop()
	if a.done != nil || tsCompiles.Load() != before {
		t.Error("compiled ahead with every CPU token taken")
	}
}
