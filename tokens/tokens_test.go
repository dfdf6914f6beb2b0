package tokens

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

// known holds each fixture's size and token counts as OpenAI's tiktoken
// computes them: the npm package tiktoken 1.0.22 (its Rust core compiled to
// WebAssembly, with its own vocabulary files), run by testdata/oracle.mjs,
// which prints these lines. The test needs no node.
var known = []struct {
	name                string
	bytes, o200k, cl100 int
}{
	{"code.ts", 465, 147, 146},
	{"empty.txt", 0, 0, 0},
	{"prose.txt", 350, 79, 82},
	{"unicode.txt", 356, 106, 156},
	{"whitespace.txt", 86, 32, 31},
	{"long", 80448, 23296, 26560},
}

// fixtures are the texts under testdata, by name, and "long": all of them
// joined in name order, 64 times over (as oracle.mjs builds it).
func fixtures(t *testing.T) map[string]string {
	t.Helper()
	texts := map[string]string{}
	var all strings.Builder
	for _, k := range known {
		if k.name == "long" {
			continue
		}
		data, err := os.ReadFile(filepath.Join("testdata", k.name))
		if err != nil {
			t.Fatal(err)
		}
		texts[k.name] = string(data)
		all.Write(data)
	}
	texts["long"] = strings.Repeat(all.String(), 64)
	return texts
}

func TestCountMatchesTiktoken(t *testing.T) {
	texts := fixtures(t)
	for _, k := range known {
		t.Run(k.name, func(t *testing.T) {
			text := texts[k.name]
			if len(text) != k.bytes {
				t.Fatalf("fixture is %d bytes, the known counts are for %d: recompute them with testdata/oracle.mjs", len(text), k.bytes)
			}
			got, err := Count(text)
			if err != nil {
				t.Fatal(err)
			}
			if want := (findings.Tokens{O200kBase: k.o200k, Cl100kBase: k.cl100}); got != want {
				t.Errorf("Count = %+v, want %+v (tiktoken)", got, want)
			}
		})
	}
}

// TestCountConcurrent counts from many goroutines at once, as the
// extractor's workers do, and gets the sequential answer each time.
func TestCountConcurrent(t *testing.T) {
	texts := fixtures(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		for _, k := range known[:5] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got, err := Count(texts[k.name])
				if err != nil || got.O200kBase != k.o200k || got.Cl100kBase != k.cl100 {
					t.Errorf("%s: Count = %+v, %v", k.name, got, err)
				}
			}()
		}
	}
	wg.Wait()
}
