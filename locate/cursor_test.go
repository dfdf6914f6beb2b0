package locate

import (
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/source"
)

func TestTopLevelOnly(t *testing.T) {
	for text, want := range map[string]bool{
		"(program (import_statement) @i)":                                  true,
		"(program (import_statement)) @p\n(program (export_statement))":    true,
		"; comment\n(program\n  (lexical_declaration) @d (#eq? @d \"x\"))": true,
		"(import_statement) @i":                                            false,
		"(program (a)) (import_statement)":                                 false,
		"[(program (a)) (program (b))]":                                    false,
		"((program) (program))":                                            false,
		"(program (a))*":                                                   false,
		"(_ (a))":                                                          false,
		"(program (a)":                                                     false,
		"":                                                                 false,
		"\"program\"":                                                      false,
	} {
		if got := topLevelOnly(text); got != want {
			t.Errorf("topLevelOnly(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestStartAtRootOnly checks that the setting reaches tree-sitter's cursor
// (the binding's layout is what startAtRootOnly assumes): a query for any
// identifier, run from the program node with matches started at it only,
// finds none, and finds them all otherwise.
func TestStartAtRootOnly(t *testing.T) {
	f, err := parseFile(&source.File{Path: "a.ts", Data: []byte("const a = 1\nfunction f() { return b }\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	q, err := sitter.NewQuery([]byte("(identifier) @i"), f.lang)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	count := func(rootOnly bool) int {
		cur := sitter.NewQueryCursor()
		defer cur.Close()
		if rootOnly {
			startAtRootOnly(cur)
		}
		cur.Exec(q, f.root)
		n := 0
		for {
			if _, ok := cur.NextMatch(); !ok {
				return n
			}
			n++
		}
	}
	if all, root := count(false), count(true); all != 3 || root != 0 {
		t.Fatalf("identifiers matched: %d from every node, %d from the root only; want 3 and 0", all, root)
	}
}

// TestRootOnlyMatchesAsEverywhere checks that every query text of the
// catalog gives the same matches on every file of the catalog fixture
// whether or not a top-level-only query starts matches below the node it
// runs on, and that some such text matched something.
func TestRootOnlyMatchesAsEverywhere(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	texts := catalogQueries(cat)
	describe := func(off bool) []string {
		cachesOff.rootOnly = off
		defer func() { cachesOff.rootOnly = false }()
		var out []string
		// Files parsed afresh: a file remembers its runs.
		for _, f := range fixtureFiles(t) {
			for _, text := range texts {
				q, err := compileQuery(text)
				if err != nil {
					t.Fatal(err)
				}
				ms, err := q.run(f, f.root, nil)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, describeMatches(ms))
			}
		}
		return out
	}
	on, off := describe(false), describe(true)
	if len(on) != len(off) {
		t.Fatalf("%d runs with the setting on, %d off", len(on), len(off))
	}
	for i := range on {
		if on[i] != off[i] {
			t.Errorf("query %.60q: root only %s, everywhere %s", texts[i%len(texts)], on[i], off[i])
		}
	}
	matched := 0
	for i, text := range texts {
		if q, _ := compileQuery(text); q != nil && topLevelOnly(q.group.text) {
			for j := i; j < len(on); j += len(texts) {
				if on[j] != "" {
					matched++
				}
			}
		}
	}
	if matched == 0 {
		t.Fatal("no top-level-only query matched in the fixture: the test compares nothing it changes")
	}
}
