package findings_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/locate"
	"github.com/keyfindings/keyfindings/source"
)

const shapesFixtures = "../testdata/shapes"

// locateTree extracts cat from the plain directory root.
func locateTree(t *testing.T, cat *findings.Catalog, root string) map[string]*findings.Record {
	t.Helper()
	x, err := locate.Compile(cat)
	if err != nil {
		t.Fatal(err)
	}
	res, err := x.Extract(source.NewDirSnapshot(root), locate.Meta{Repo: "https://github.com/anomalyco/opencode"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*findings.Record{}
	for _, r := range res.Document.Findings {
		got[r.ID] = r
	}
	return got
}

// checkMarked checks that every span marked in root is located exactly,
// by the shape the marker names, and that nothing unmarked is located.
func checkMarked(t *testing.T, cat *findings.Catalog, root string) map[string]*findings.Record {
	t.Helper()
	got := locateTree(t, cat, root)
	want := readMarkers(t, root)
	for id, r := range got {
		if _, ok := want[id]; !ok && r.Status == findings.StatusLocated {
			t.Errorf("%s: %s: located at %s lines %d-%d by shape %q, but no fixture marks it", root, id, r.Location.Path, r.Location.Lines.Start, r.Location.Lines.End, r.Shape)
		}
	}
	ids := make([]string, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		w, r := want[id], got[id]
		switch {
		case r == nil:
			t.Errorf("%s: no record for %s", root, id)
		case r.Status != findings.StatusLocated:
			t.Errorf("%s: %s is %s (%s), want located", root, id, r.Status, deref(r.Problem))
		case r.Location.Path != w.path || r.Location.Lines.Start != w.start || r.Location.Lines.End != w.end || r.Shape != w.shape:
			t.Errorf("%s: %s located at %s lines %d-%d by shape %q; fixture marks %s lines %d-%d, shape %q",
				root, id, r.Location.Path, r.Location.Lines.Start, r.Location.Lines.End, r.Shape, w.path, w.start, w.end, w.shape)
		}
	}
	return got
}

func loadShapesDefs(t *testing.T) *findings.Catalog {
	t.Helper()
	dir := filepath.Join(shapesFixtures, "defs")
	cat, err := findings.Load(os.DirFS(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestShapesOnFixtures: the newest shape that matches decides; its prose
// and facts are the record's, falling back to the definition's.
func TestShapesOnFixtures(t *testing.T) {
	cat := loadShapesDefs(t)
	d := cat.Find("provider")

	mod := checkMarked(t, cat, filepath.Join(shapesFixtures, "module"))["provider"]
	if mod.Claim != strings.TrimSpace(d.Claim) || mod.Caveat == nil || *mod.Caveat != strings.TrimSpace(d.Caveat) {
		t.Errorf("module shape: claim %q caveat %v, want the definition's", mod.Claim, mod.Caveat)
	}
	if !findings.EqualFacts(mod.Facts, findings.Facts{"tests": []any{"alpha", "beta"}}) || mod.Review != nil {
		t.Errorf("module shape: facts %v review %v, want the definition's facts, as reviewed", mod.Facts, deref(mod.Review))
	}

	ns := checkMarked(t, cat, filepath.Join(shapesFixtures, "namespace"))["provider"]
	if ns.Claim != strings.TrimSpace(d.Shapes[1].Claim) || ns.When != strings.TrimSpace(d.When) {
		t.Errorf("namespace shape: claim %q when %q, want the shape's claim and the definition's when", ns.Claim, ns.When)
	}
	if !findings.EqualFacts(ns.Facts, findings.Facts{"tests": []any{"alpha"}, "subject": "modelID"}) || ns.Review != nil {
		t.Errorf("namespace shape: facts %v review %v, want the shape's facts, as reviewed under namespace/provider", ns.Facts, deref(ns.Review))
	}
}

// TestShapesAmbiguousDoesNotFallThrough: when the newest shape that
// matches anything matches twice, the finding is ambiguous, although an
// older shape would match once.
func TestShapesAmbiguousDoesNotFallThrough(t *testing.T) {
	r := locateTree(t, loadShapesDefs(t), filepath.Join(shapesFixtures, "ambiguous"))["provider"]
	if r.Status != findings.StatusAmbiguous || r.Shape != "module" || len(r.Candidates) != 2 {
		t.Fatalf("status %s shape %q candidates %v, want ambiguous in shape module with 2 candidates", r.Status, r.Shape, r.Candidates)
	}
}

// TestShapesMissingNamesEveryShape: no shape matching is missing, with no
// shape recorded and each shape's reason.
func TestShapesMissingNamesEveryShape(t *testing.T) {
	r := locateTree(t, loadShapesDefs(t), filepath.Join(shapesFixtures, "neither"))["provider"]
	want := "shape module: no match in packages/opencode/src/session/system.ts; shape namespace: no match in packages/opencode/src/session/system.ts"
	if r.Status != findings.StatusMissing || r.Shape != "" || deref(r.Problem) != want {
		t.Fatalf("status %s shape %q problem %q, want missing, no shape, %q", r.Status, r.Shape, deref(r.Problem), want)
	}
}

// eraFacts pins, per era fixture, the facts of system-prompt-routing.
var eraFacts = map[string]string{
	"namespace": `[{"tests":["alpha"],"subject":"model.api.id","prompt":"PROMPT_ALPHA","file":"packages/opencode/src/session/prompt/alpha.txt"},
		{"tests":["wide"],"subject":"model.api.id","prompt":"PROMPT_WIDE","file":"packages/opencode/src/session/prompt/wide.txt",
		 "rules":[{"tests":["fast"],"subject":"model.api.id","prompt":"PROMPT_WIDE_FAST","file":"packages/opencode/src/session/prompt/wide-fast.txt"}]}]`,
	"namespace-model-id": `[{"tests":["alpha"],"subject":"modelID","prompt":"PROMPT_ALPHA","file":"packages/opencode/src/session/prompt/alpha.txt"},
		{"tests":["wide-","broad"],"joined_by":"||","subject":"modelID","prompt":"PROMPT_WIDE","file":"packages/opencode/src/session/prompt/wide.txt"}]`,
}

// TestCatalogEras builds the embedded catalog against the fixtures of
// older forms of opencode's code: each marked span is located exactly, by
// the shape the marker names, with that shape's prose.
func TestCatalogEras(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	d := cat.Find("system-prompt-routing")
	for era, rules := range eraFacts {
		t.Run(era, func(t *testing.T) {
			r := checkMarked(t, cat, filepath.Join("../testdata/eras", era))["system-prompt-routing"]
			if r == nil || !r.Located() {
				t.Fatal("system-prompt-routing is not located")
			}
			var want any
			if err := json.Unmarshal([]byte(rules), &want); err != nil {
				t.Fatal(err)
			}
			// Each rule's structured condition (cond) is the route
			// evaluator's input, tested there (route, extract TestExprFacts);
			// here the eras must agree on the rest.
			got := withoutCond(r.Facts["rules"])
			if !findings.EqualFacts(findings.Facts{"rules": got}, findings.Facts{"rules": want}) {
				have, _ := json.Marshal(got)
				t.Errorf("rules = %s\nwant %s", have, rules)
			}
			var shape findings.Shape
			for _, s := range d.Shapes {
				if s.Name == era {
					shape = s
				}
			}
			wantClaim := strings.TrimSpace(shape.Claim)
			if wantClaim == "" {
				wantClaim = strings.TrimSpace(d.Claim)
			}
			if r.Claim != wantClaim {
				t.Errorf("claim %q, want the %s shape's", r.Claim, era)
			}
		})
	}
}

// withoutCond returns a list of rule rows, nested rules included,
// without their "cond" field.
func withoutCond(v any) any {
	rows, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, len(rows))
	for i, row := range rows {
		m, ok := row.(map[string]any)
		if !ok {
			out[i] = row
			continue
		}
		c := map[string]any{}
		for k, x := range m {
			if k != "cond" {
				c[k] = withoutCond(x)
			}
		}
		out[i] = c
	}
	return out
}

// TestEraFixtures builds the embedded catalog against every directory of
// testdata/eras: each marked span is located exactly, by the shape its
// marker names, and nothing unmarked is located. Adding a shape's fixture
// is adding a directory.
func TestEraFixtures(t *testing.T) {
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("../testdata/eras")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			dir := filepath.Join("../testdata/eras", e.Name())
			if len(readMarkers(t, dir)) == 0 {
				t.Fatalf("%s marks no span: an era fixture must mark what its shape locates", dir)
			}
			checkMarked(t, cat, dir)
		})
	}
	if n == 0 {
		t.Fatal("no era fixtures")
	}
}
