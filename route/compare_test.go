package route

import (
	"reflect"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
)

// TestCompareRoutes changes a tool description and the routing between
// two documents: each route's delta is made up of the records whose
// counted tokens differ, and a route evaluated on neither side is left
// out.
func TestCompareRoutes(t *testing.T) {
	old, new := testDoc(t), testDoc(t)
	for _, r := range new.Findings {
		switch r.ID {
		case "desc-edit":
			r.Location.Tokens = &findings.Tokens{O200kBase: 13, Cl100kBase: 14}
		case "files-a":
			r.Location.Tokens = &findings.Tokens{O200kBase: 150, Cl100kBase: 151}
		}
	}
	cfg := testConfig()
	cfg.Models = []Model{{ID: "alpha-1", Provider: "acme"}, {ID: "wide-1", Provider: "acme"}}
	d := diff.Compare(old, new)
	CompareRoutes(d, cfg)
	want := []string{
		"alpha-1 (acme): +53 o200k_base tokens (110 → 163); prompt alpha.txt rewritten (+50), edit description rewritten (+3)",
		"wide-1 (acme): ±0 o200k_base tokens (20 → 20)",
	}
	if len(d.Routes) != len(want) {
		t.Fatalf("%d routes, want %d", len(d.Routes), len(want))
	}
	for i, r := range d.Routes {
		if got := r.Text(); got != want[i] {
			t.Errorf("route %d:\n got %s\nwant %s", i, got, want[i])
		}
	}
	if !d.Routes[0].Differs() || d.Routes[1].Differs() {
		t.Errorf("Differs: %v %v, want true false", d.Routes[0].Differs(), d.Routes[1].Differs())
	}

	// A description that is gone drops out of the route.
	noEdit := testDoc(t)
	noEdit.Findings = append(noEdit.Findings[:6:6], noEdit.Findings[7:]...)
	d = diff.Compare(old, noEdit)
	CompareRoutes(d, cfg)
	if got, want := d.Routes[0].Text(), "alpha-1 (acme): -10 o200k_base tokens (110 → 100); edit description no longer counted (-10)"; got != want {
		t.Errorf("without the edit description:\n got %s\nwant %s", got, want)
	}

	// A route that cannot be evaluated on one side says why.
	gone := testDoc(t)
	gone.Findings = gone.Findings[1:] // no routing record
	d = diff.Compare(old, gone)
	CompareRoutes(d, cfg)
	if len(d.Routes) != 2 || d.Routes[0].New != nil || !strings.Contains(d.Routes[0].Text(), "not evaluated in the new one: record routing is not located") {
		t.Errorf("route without routing record: %s", d.Routes[0].Text())
	}
	d = diff.Compare(gone, gone)
	CompareRoutes(d, cfg)
	if len(d.Routes) != 0 {
		t.Errorf("routes evaluated on neither side are listed: %d", len(d.Routes))
	}
}

// TestTotalsEvaluatesEachModel: Totals, which indexes the document once
// for all models, gives each model the route Evaluate gives it alone,
// whatever the order (no model's evaluation changes what the next one
// reads).
func TestTotalsEvaluatesEachModel(t *testing.T) {
	doc := testDoc(t)
	cfg := testConfig()
	cfg.Models = []Model{{ID: "wide-quick", Provider: "acme"}, {ID: "alpha-1", Provider: "acme"}, {ID: "LOW-1", Provider: "house"}, {ID: "wide-1", Provider: "acme"}}
	got := Totals(doc, cfg)
	for i, m := range cfg.Models {
		want, err := Evaluate(testDoc(t), cfg, m)
		if err != nil || got[i].Err != nil {
			t.Fatalf("%s: errors %v, %v", m.ID, err, got[i].Err)
		}
		if !reflect.DeepEqual(got[i].Route, want) {
			t.Errorf("%s: Totals gives\n%+v\nEvaluate gives\n%+v", m.ID, got[i].Route, want)
		}
	}
}
