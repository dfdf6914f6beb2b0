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
	first := firstGroups(x.defs)
	if len(first) < len(cat.Definitions) {
		t.Fatalf("%d first groups for %d definitions", len(first), len(cat.Definitions))
	}
	compileAheadOf(t, x, x.defs)
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
	a := &ahead{x: x, defs: x.defs}
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
		a = &ahead{x: x, defs: x.defs}
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
	a = &ahead{x: x, defs: x.defs}
	a.walking()
	a.stop()
	if a.done != nil || tsCompiles.Load() != before {
		t.Error("compiled ahead with every CPU token taken")
	}
}

// TestCompileAheadOnlyItsDefinitions: compiling ahead for some definitions
// (an ExtractEach call, keyfindings log of one finding) compiles their first
// groups, and no group only other definitions run first.
func TestCompileAheadOnlyItsDefinitions(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	compiledQueries.Clear()
	t.Cleanup(compiledQueries.Clear)
	x, err := Compile(cat)
	if err != nil {
		t.Fatal(err)
	}
	one := x.defs[len(x.defs)/2]
	mine := firstGroups([]*compiledDef{one})
	if len(mine) == 0 {
		t.Fatalf("%s runs no group first", one.def.ID)
	}
	isMine := map[*queryGroup]bool{}
	for _, g := range mine {
		isMine[g.group] = true
	}
	compileAheadOf(t, x, []*compiledDef{one})
	for _, g := range mine {
		if !compiledFor(g.group, g.lang) {
			t.Errorf("%s: group %.60q not compiled ahead", one.def.ID, g.group.text)
		}
	}
	others := 0
	for _, g := range firstGroups(x.defs) {
		if isMine[g.group] {
			continue
		}
		others++
		if compiledFor(g.group, g.lang) {
			t.Errorf("group %.60q of another definition compiled ahead", g.group.text)
		}
	}
	if others == 0 {
		t.Fatal("every first group is the one definition's: the test tells nothing")
	}
}

// compileAheadOf compiles ahead the first groups of defs, as a first
// build's walk starts it, and waits until it has compiled them all.
func compileAheadOf(t *testing.T, x *Extractor, defs []*compiledDef) {
	t.Helper()
	a := &ahead{x: x, defs: defs}
	a.walking()
	select {
	case <-a.done:
	case <-time.After(time.Minute):
		t.Fatal("compiling ahead did not end")
	}
	a.stop()
}
