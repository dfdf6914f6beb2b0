package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/route"
)

// TestRoutesPageCatalog builds the catalog fixture and checks its
// routes page against `keyfindings route`: one row per representative
// model of the routes data, with the same total.
func TestRoutesPageCatalog(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	if _, stderr, code := kf("build", "--quiet", "--repo", "../../testdata/catalog", "--out", out); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "routes.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	cfg, err := route.ParseConfig(findings.RoutesData(), "routes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile(`<td><a href="#route-[^"]+"><code>([^<]+)</code></a> \(`).FindAllStringSubmatch(page, -1)
	if len(rows) != len(cfg.Models) {
		t.Errorf("routes.html has %d model rows, the routes data %d", len(rows), len(cfg.Models))
	}
	for _, m := range cfg.Models {
		r := routeJSON(t, m.ID, "--repo", "../../testdata/catalog")
		if r.Tokens == nil || r.Tokens.O200k == 0 {
			t.Fatalf("%s: route gives no total", m.ID)
		}
		anchor := "route-" + strings.NewReplacer(".", "-", "/", "-").Replace(strings.ToLower(m.ID))
		if cell := fmt.Sprintf(`<a href="#%s">%d</a>`, anchor, r.Tokens.O200k); !strings.Contains(page, cell) {
			t.Errorf("%s: routes.html lacks the total cell %s", m.ID, cell)
		}
	}
}

// TestDiffRoutesCatalog diffs the catalog fixture's findings.json with a
// copy whose edit tool description grew: the diff reports the record's
// token change and, for each model whose route counts that description,
// the route's change made up of it.
func TestDiffRoutesCatalog(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	if _, stderr, code := kf("build", "--quiet", "--repo", "../../testdata/catalog", "--out", out); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	old := filepath.Join(out, "findings.json")
	doc, err := findings.ReadDocument(old)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Findings {
		if r.ID == "tool-descriptions-edit-txt" {
			text := r.Location.Excerpt + "Check the file first.\n"
			sum := sha256.Sum256([]byte(text))
			hash := hex.EncodeToString(sum[:])
			r.Location.Excerpt, r.Location.SHA256 = text, hash
			r.Location.Lines.End++
			r.Location.Tokens.O200kBase += 312
			r.Location.Tokens.Cl100kBase += 300
		}
	}
	data, err := doc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	grown := filepath.Join(dir, "grown.json")
	if err := os.WriteFile(grown, data, 0o644); err != nil {
		t.Fatal(err)
	}
	text, stderr, code := kf("diff", "--quiet", old, grown)
	if code != 0 {
		t.Fatalf("diff: exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"    +312 o200k_base tokens (10 → 322); +300 cl100k_base (10 → 310)\n",
		"  gpt-5 (openai): +312 o200k_base tokens (42 → 354); edit description rewritten (+312)\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("diff lacks %q:\n%s", want, text)
		}
	}
	md, _, _ := kf("diff", "--quiet", "--format", "md", old, grown)
	if !strings.Contains(md, "| `gpt-5` (openai) | +312 o200k\\_base tokens (42 → 354) | edit description rewritten (+312, `tool-descriptions-edit-txt`) |") {
		t.Errorf("Markdown diff lacks the gpt-5 route:\n%s", md)
	}
}
