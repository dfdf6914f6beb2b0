package locate

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/source"
)

// TestAnchoredRunsMatchAsWhole checks that every query text of the catalog,
// compiled alone and in the catalog's groups, keeps the same matches in
// the same order on every source file of the fixtures whether its group's
// run starts matches only around the anchors (anchorSpan) or at every node
// of the file; and that the comparison covers runs the anchors limited,
// runs they skipped and matches found.
func TestAnchoredRunsMatchAsWhole(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	texts := catalogQueries(cat)
	var files []*source.File
	err = filepath.WalkDir("../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !isSource(p) {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil {
			files = append(files, &source.File{Path: filepath.ToSlash(p), Data: data})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// run gives each text's matches on each file, the files parsed afresh
	// (a file remembers its runs), and counts the runs by reach.
	run := func(t *testing.T, off bool, compile func(string) (*query, error)) ([]string, [3]int) {
		cachesOff.anchoredRuns = off
		defer func() { cachesOff.anchoredRuns = false }()
		qs := make([]*query, len(texts))
		for i, text := range texts {
			q, err := compile(text)
			if err != nil {
				t.Fatal(err)
			}
			qs[i] = q
		}
		var out []string
		var reach [3]int
		for _, file := range files {
			f, err := parseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range qs {
				_, r := q.group.anchorSpan(f.Data)
				reach[r]++
				ms, err := q.run(f, f.root, nil)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, describeMatches(ms))
			}
			f.close()
		}
		return out, reach
	}
	compare := func(t *testing.T, compile func(string) (*query, error)) {
		anchored, reach := run(t, false, compile)
		whole, _ := run(t, true, compile)
		matched := 0
		for i := range anchored {
			if anchored[i] != whole[i] {
				t.Errorf("query %.60q on %s:\nanchored: %s\nwhole:    %s", texts[i%len(texts)], files[i/len(texts)].Path, anchored[i], whole[i])
			}
			if anchored[i] != "" {
				matched++
			}
		}
		if reach[reachesSpan] == 0 || reach[reachesNothing] == 0 || matched == 0 {
			t.Fatalf("runs limited to a span %d, skipped %d, with matches %d: the test compares nothing the anchors change", reach[reachesSpan], reach[reachesNothing], matched)
		}
	}
	alone := map[string]*query{}
	t.Run("alone", func(t *testing.T) {
		compare(t, func(text string) (*query, error) {
			if q, ok := alone[text]; ok {
				return q, nil
			}
			q, err := compileQueryText(text)
			alone[text] = q
			return q, err
		})
	})
	t.Run("grouped", func(t *testing.T) {
		withoutEmbeddedMeta(t)
		for _, g := range queryGroups(cat, texts) {
			compileGroup(g)
		}
		compare(t, compileQuery)
	})
}

// TestJoinedFactsAsWhole checks that the catalog's records on every
// fixture tree (testdata/catalog and each era of testdata/eras) are the
// same, facts included, whether the facts that join their matches to the
// enclosing captures (Where) run only around the occurrences of the
// joined text (joinStarts) or over the whole file or span; and that the
// comparison covers such runs and joined facts with values.
func TestJoinedFactsAsWhole(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{"../testdata/catalog"}
	eras, err := filepath.Glob("../testdata/eras/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range eras {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			dirs = append(dirs, d)
		}
	}
	// joined names the facts with Where, by definition id.
	joined := map[string][]string{}
	for _, d := range cat.Definitions {
		for _, form := range d.Forms() {
			for _, f := range form.Facts {
				if len(f.Where) > 0 {
					joined[d.ID] = append(joined[d.ID], f.Name)
				}
			}
		}
	}
	extract := func(t *testing.T, dir string, whole bool) []byte {
		cachesOff.anchoredRuns = whole
		defer func() { cachesOff.anchoredRuns = false }()
		x, err := Compile(cat)
		if err != nil {
			t.Fatal(err)
		}
		out, err := extractDir(t, x, dir).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := counted.joinStarts.Load()
	withValues := 0
	for _, dir := range dirs {
		limited := extract(t, dir, false)
		whole := extract(t, dir, true)
		if !bytes.Equal(limited, whole) {
			t.Errorf("%s: records differ when joined facts run only around their texts", dir)
		}
		doc, err := findings.DecodeDocument(limited, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range doc.Findings {
			def := r.Definition
			if def == "" {
				def = r.ID
			}
			for _, name := range joined[def] {
				if v, ok := r.Facts[name]; ok && v != nil && fmt.Sprint(v) != "[]" {
					withValues++
				}
			}
		}
	}
	if counted.joinStarts.Load() == before || withValues == 0 {
		t.Fatalf("%d joined facts run around their texts, %d with values: the test compares nothing joinStarts changes", counted.joinStarts.Load()-before, withValues)
	}
}
