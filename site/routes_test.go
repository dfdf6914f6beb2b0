package site

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/route"
)

// TestRoutesPage renders the routes fixture: each model's total is the
// one the route package computes, marked as an estimate exactly where
// the model's tokenizer is not o200k_base, and every link to a record
// lands on an anchor of that page.
func TestRoutesPage(t *testing.T) {
	doc := readFixture(t, "routes.json")
	cfg := readRoutes(t, "routes.yaml")
	files, err := RenderWith(doc, nil, Options{Routes: cfg})
	if err != nil {
		t.Fatal(err)
	}
	page := string(files[routesFile])
	for _, m := range cfg.Models {
		rt, err := route.Evaluate(doc, cfg, m)
		if err != nil {
			t.Fatal(err)
		}
		cell := fmt.Sprintf(`<a href="#route-%s">%d</a>`, slugify(m.ID), rt.Tokens.O200kBase)
		estimate := cell + " (estimate)"
		switch {
		case !strings.Contains(page, cell):
			t.Errorf("%s: no total cell %s", m.ID, cell)
		case m.Tokenizer == "" && !strings.Contains(page, estimate):
			t.Errorf("%s: total not marked as an estimate", m.ID)
		case m.Tokenizer != "" && strings.Contains(page, estimate):
			t.Errorf("%s: total marked as an estimate, but its tokenizer is %s", m.ID, m.Tokenizer)
		}
	}
	links := regexp.MustCompile(`href="([a-z]+\.html)#([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(links) < 10 {
		t.Fatalf("routes.html links only %d records", len(links))
	}
	for _, l := range links {
		if !strings.Contains(string(files[l[1]]), `id="`+l[2]+`"`) {
			t.Errorf("routes.html links %s#%s, which has no such anchor", l[1], l[2])
		}
	}
	for _, want := range []string{"fixed reminders", `href="tools.html#tool-advertising"`, "Depend on run time", `<a href="routes.html" aria-current="page">Routes</a>`} {
		if !strings.Contains(page, want) {
			t.Errorf("routes.html lacks %q", want)
		}
	}
	if !strings.Contains(string(files["index.html"]), `<a href="routes.html">routes</a>`) {
		t.Error("index.html does not link the routes page")
	}
}
