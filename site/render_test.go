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
	}{
		{"full", "findings.json", testLicense},
		{"plain", "plain.json", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, err := Render(readFixture(t, tc.fixture), tc.license)
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
