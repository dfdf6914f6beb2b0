package main

import (
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
	rows := regexp.MustCompile(`<td><code>([^<]+)</code></td>`).FindAllStringSubmatch(page, -1)
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
