package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

// maxIndexBytes bounds the size of the pinned release's index.html.
const maxIndexBytes = 250 << 10

// TestRealHistoryPages builds the pinned release of the real history and
// reads its pages as a reader would: no valid code drawn as an error by
// the highlighter, an index small enough for a phone, and an index whose
// contents list links every finding.
func TestRealHistoryPages(t *testing.T) {
	repo := realRepo(t)
	out := filepath.Join(t.TempDir(), "site")
	if code, _, stderr := runCmd("build", "--repo", repo, "--ref", findings.DefaultPin().Ref, "--out", out, "--strict", "--quiet"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	pages, err := filepath.Glob(filepath.Join(out, "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages in %s (%v)", out, err)
	}
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), `class="err"`); n > 0 {
			t.Errorf("%s: %d tokens drawn as errors", filepath.Base(page), n)
		}
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if len(index) > maxIndexBytes {
		t.Errorf("index.html is %d bytes, want at most %d", len(index), maxIndexBytes)
	}
	doc, err := findings.ReadDocument(filepath.Join(out, "findings.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, contents, _ := strings.Cut(string(index), "<p>Contents:</p>")
	contents, _, _ = strings.Cut(contents, "</ol>")
	for _, r := range doc.Findings {
		if !strings.Contains(contents, `href="#`+r.ID+`"`) {
			t.Errorf("index contents do not link %s", r.ID)
		}
	}
}
