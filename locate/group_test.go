package locate

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/source"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/keyfindings/keyfindings/findings"
)

// withoutEmbeddedMeta makes the test compile the built-in catalog as a
// catalog given with --defs: every text before any source is read.
func withoutEmbeddedMeta(t *testing.T) {
	useEmbeddedMeta = false
	compiledQueries.Clear()
	t.Cleanup(func() {
		useEmbeddedMeta = true
		compiledQueries.Clear()
	})
}

// TestCatalogCompilesInGroups checks that the query texts of a catalog
// compiled up front reach tree-sitter in groups, at most two per
// definition (its shapes' queries, its facts'), not one compile per text.
func TestCatalogCompilesInGroups(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	withoutEmbeddedMeta(t)
	before := tsCompiles.Load()
	if _, err := Compile(cat); err != nil {
		t.Fatal(err)
	}
	n := tsCompiles.Load() - before
	texts := len(catalogQueries(cat))
	if limit := int64(2 * len(cat.Definitions)); n > limit || n >= int64(texts) {
		t.Errorf("compiling %d query texts of %d definitions took %d tree-sitter compiles, want at most %d", texts, len(cat.Definitions), n, limit)
	}
	// A second Extractor in the same process compiles nothing again.
	before = tsCompiles.Load()
	if _, err := Compile(cat); err != nil {
		t.Fatal(err)
	}
	if n := tsCompiles.Load() - before; n != 0 {
		t.Errorf("compiling the catalog again took %d tree-sitter compiles, want none", n)
	}
}

// TestGroupedQueriesMatchAsAlone runs every query text of the catalog, as
// its group holds it, over every file of the catalog fixture, and checks
// that it gives exactly the matches (captures, nodes, order) the text
// compiled alone gives: other texts' patterns, captures and predicates in
// the group change nothing. Groups compiled up front (a catalog given
// with --defs) and groups joined from the embedded entries (the built-in
// catalog) alike.
func TestGroupedQueriesMatchAsAlone(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	texts := catalogQueries(cat)
	files := fixtureFiles(t)
	// What each text gives compiled alone: its query and its matches on
	// each file.
	alone := map[string]*query{}
	want := map[string][]string{}
	for _, text := range texts {
		q, err := compileQueryText(text)
		if err != nil {
			t.Fatal(err)
		}
		alone[text] = q
		for _, f := range files {
			ms, err := q.run(f, f.root, nil)
			if err != nil {
				t.Fatal(err)
			}
			want[text] = append(want[text], describeMatches(ms))
		}
	}
	compare := func(t *testing.T) {
		grouped, matched := 0, 0
		for _, text := range texts {
			q, err := compileQuery(text)
			if err != nil {
				t.Fatal(err)
			}
			if q.group.text != text {
				grouped++
			}
			a := alone[text]
			if !slices.Equal(q.captures, a.captures) || len(q.preds) != len(a.preds) || !slices.Equal(q.anchors, a.anchors) {
				t.Errorf("query %.60q: grouped captures %v, %d patterns, anchors %v; alone %v, %d, %v", text, q.captures, len(q.preds), q.anchors, a.captures, len(a.preds), a.anchors)
			}
			for i, f := range files {
				got, err := q.run(f, f.root, nil)
				if err != nil {
					t.Fatal(err)
				}
				if g := describeMatches(got); g != want[text][i] {
					t.Errorf("query %.60q on %s:\ngrouped: %s\nalone:   %s", text, f.Path, g, want[text][i])
				}
				matched += len(got)
			}
		}
		if grouped == 0 || matched == 0 {
			t.Fatalf("%d texts grouped, %d matches compared: the test compares nothing", grouped, matched)
		}
	}
	t.Run("compiled", func(t *testing.T) {
		withoutEmbeddedMeta(t)
		for _, g := range queryGroups(cat, texts) {
			compileGroup(g)
		}
		compare(t)
	})
	t.Run("embedded", func(t *testing.T) {
		compiledQueries.Clear()
		t.Cleanup(compiledQueries.Clear)
		if rest := storeKnown(cat, texts, nil); len(rest) != 0 {
			t.Fatalf("%d texts of the built-in catalog have no embedded entry (first %.60q); run go test ./locate -run TestEmbeddedQueryMeta -update", len(rest), rest[0])
		}
		compare(t)
	})
}

// fixtureFiles parses every source file of the catalog fixture; closed
// when the test ends.
func fixtureFiles(t *testing.T) []*parsedFile {
	t.Helper()
	var files []*parsedFile
	err := filepath.WalkDir(catalogTree, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !isSource(p) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		pf, err := parseFile(&source.File{Path: filepath.ToSlash(p), Data: data})
		if err != nil {
			return err
		}
		files = append(files, pf)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, f := range files {
			f.close()
		}
	})
	return files
}

// describeMatches writes matches as their captures' names and byte ranges.
func describeMatches(ms []match) string {
	var out []string
	for _, m := range ms {
		var caps []string
		for name, nodes := range m.captures {
			for _, n := range nodes {
				caps = append(caps, fmt.Sprintf("%s@%d-%d", name, n.StartByte(), n.EndByte()))
			}
		}
		sort.Strings(caps)
		out = append(out, "{"+strings.Join(caps, " ")+"}")
	}
	return strings.Join(out, " ")
}

// TestScanQuery checks the pattern count and capture order scanQuery reads
// against tree-sitter's own, on texts that trip a naive reading.
func TestScanQuery(t *testing.T) {
	texts := []string{
		`(identifier) @x`,
		"(string) @s ; a comment with ( and @y\n(number) @n",
		`((identifier) @a (#eq? @a "(@b") (#match? @a "\"x\""))`,
		`[ (string) @v (number) @v ] @either`,
		`_ @any`,
		`"return" @kw`,
		`name: (identifier) @n`,
		`(pair key: (_) @k value: (_)? @v) (pair value: (string) @v) @p2`,
		`(identifier) @x (#eq? @x "a")`, // a top-level predicate is a pattern of its own,
		`(call_expression function: (identifier) @f (#any-of? @f "a" "b")) @call (program . (comment)? @c)`,
	}
	for _, text := range texts {
		s, ok := scanQuery(text)
		sq, err := sitter.NewQuery([]byte(text), langTS)
		if err != nil {
			t.Fatalf("%q does not compile: %v", text, err)
		}
		var names []string
		for i := uint32(0); i < sq.CaptureCount(); i++ {
			names = append(names, sq.CaptureNameForId(i))
		}
		if !ok || s.patterns != int(sq.PatternCount()) || !slices.Equal(s.captures, names) {
			t.Errorf("scanQuery(%q) = %d patterns, captures %v, ok %v; tree-sitter: %d, %v", text, s.patterns, s.captures, ok, sq.PatternCount(), names)
		}
	}
	for _, text := range []string{`(identifier`, `(string) "open`, `(a))`, `name:`} {
		if _, ok := scanQuery(text); ok {
			t.Errorf("scanQuery(%q) ok, want not: it does not end at the top level", text)
		}
	}
}

// TestGroupKeepsErrorsOfEachText checks that a text that would not compile
// alone is refused as before when it is grouped: a predicate naming a
// capture only another text of the group defines, and a text tree-sitter
// refuses, next to texts that compile.
func TestGroupKeepsErrorsOfEachText(t *testing.T) {
	compiledQueries.Clear()
	good := `((identifier) @x (#eq? @x "good"))`
	borrows := `((string) @s (#eq? @x "a"))`
	bad := `(no_such_node) @finding`
	for _, g := range [][]string{{good, borrows}, {good + " ", bad}} {
		compileGroup(g)
	}
	if _, err := compileQuery(borrows); err == nil {
		t.Errorf("a predicate naming another text's capture compiled")
	}
	_, want := compileQueryText(bad)
	if _, err := compileQuery(bad); err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("grouped bad text: %v, want %v", err, want)
	}
	for _, text := range []string{good, good + " "} {
		if q, err := compileQuery(text); err != nil || len(q.preds) != 1 || !slices.Equal(q.anchors, []string{"good"}) {
			t.Errorf("%q: %v, %+v", text, err, q)
		}
	}
}
