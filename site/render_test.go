package site

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/route"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/site/golden")

// testLicense stands in for an upstream LICENSE file.
var testLicense = []byte("Synthetic licence for tests.\n")

func readFixture(t *testing.T, name string) *findings.Document {
	t.Helper()
	doc, err := findings.ReadDocument(filepath.Join("..", "testdata", "site", name))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestGolden renders the fixture documents and compares every file with
// testdata/site/golden/<case>/. Run `go test ./site -update` to rewrite them
// after a deliberate change, and read the diff before committing it.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name, fixture string
		license       []byte
		// routes is routes data in testdata/site; "" uses the embedded.
		routes string
	}{
		{"full", "findings.json", testLicense, ""},
		{"plain", "plain.json", nil, ""},
		{"routes", "routes.json", nil, "routes.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts Options
			if tc.routes != "" {
				opts.Routes = readRoutes(t, tc.routes)
			}
			files, err := RenderWith(readFixture(t, tc.fixture), tc.license, opts)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join("..", "testdata", "site", "golden", tc.name)
			if *update {
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				for name, data := range files {
					if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatalf("%v (run go test ./site -update to create the golden files)", err)
			}
			var golden []string
			for _, e := range entries {
				golden = append(golden, e.Name())
			}
			if got, want := sortedNames(files), golden; strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("files = %v, golden has %v", got, want)
			}
			for _, name := range golden {
				want, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if got := files[name]; !bytes.Equal(got, want) {
					t.Errorf("%s differs from %s: %s", name, filepath.Join(dir, name), firstDiff(got, want))
				}
			}
		})
	}
}

// readRoutes reads routes data from testdata/site.
func readRoutes(t *testing.T, name string) *route.Config {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "site", name))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := route.ParseConfig(data, name)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func sortedNames(files Files) []string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got: " + truncate(gl, 300) + "\nwant: " + truncate(wl, 300)
		}
	}
	return "no line differs"
}

// TestHighlightSchemes checks that each colour scheme gets only its own
// token colours: a light-style rule that reached dark screens would paint
// dark text on the dark background wherever the dark style sets no colour
// of its own (identifiers and punctuation, in chroma's github-dark).
func TestHighlightSchemes(t *testing.T) {
	css, err := highlightCSS()
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	media := ""
	for _, line := range strings.Split(string(css), "\n") {
		switch {
		case strings.HasPrefix(line, "@media "):
			media = strings.TrimSuffix(strings.TrimPrefix(line, "@media "), " {")
		case line == "}":
			media = ""
		case strings.HasPrefix(line, "  "):
			blocks[media] += line + "\n"
		case strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "/*"):
			t.Errorf("rule outside a colour-scheme block: %q", line)
		}
	}
	light := blocks["not screen and (prefers-color-scheme: dark)"]
	dark := blocks["screen and (prefers-color-scheme: dark)"]
	if len(blocks) != 2 || light == "" || dark == "" {
		t.Fatalf("want one light and one dark block, got %d blocks", len(blocks))
	}
	// Identifiers are dark in the light style and inherit the light
	// foreground in the dark one.
	if !strings.Contains(light, ".chroma .nx { color: #1f2328 }") {
		t.Errorf("light block lacks the identifier colour:\n%s", light)
	}
	if strings.Contains(dark, "#1f2328") {
		t.Errorf("dark block paints text with the light style's foreground:\n%s", dark)
	}
}

// TestPageMarkdownNamesExcerpts: the Markdown the pages are converted
// from names each located record's excerpt block without holding its
// text (codeRenderer draws it from the record), while findings.md holds
// it. (TestGolden holds what the pages show.)
func TestPageMarkdownNamesExcerpts(t *testing.T) {
	doc := readFixture(t, "findings.json")
	set, err := loadTemplates(nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := newRenderer(doc, set, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pages []byte
	for i := range r.view.Pages {
		v := *r.view
		v.Page = &r.view.Pages[i]
		page, err := r.markdown(pageTemplate, &v, true)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, page...)
	}
	md, err := r.markdown(findingsTemplate, r.view, false)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, rec := range doc.Findings {
		if rec.Location == nil {
			continue
		}
		line, _, _ := strings.Cut(strings.TrimSpace(rec.Location.Excerpt), "\n")
		if len(line) < 12 || strings.ContainsAny(line, "<>&\"'`*_[]\\") {
			continue // a line that Markdown shows as it is
		}
		checked++
		if !bytes.Contains(pages, []byte(excerptInfo+rec.ID)) {
			t.Errorf("%s: the pages' Markdown does not name its excerpt block", rec.ID)
		}
		if bytes.Contains(pages, []byte(line)) {
			t.Errorf("%s: the pages' Markdown holds its excerpt line %q", rec.ID, line)
		}
		if !bytes.Contains(md, []byte(line)) {
			t.Errorf("%s: findings.md lacks its excerpt line %q", rec.ID, line)
		}
	}
	if checked == 0 {
		t.Fatal("no record's excerpt was checked")
	}
}
