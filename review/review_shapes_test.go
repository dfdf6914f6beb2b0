package review

import (
	"reflect"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/recordtest"
)

const shapedDef = `id: routing
page: prompts
section: How the system prompt is chosen
title: Routing
claim: Picks a prompt.
when: Always.
path: a.ts
shapes:
  - name: module
    query: ((identifier) @finding)
  - name: namespace
    query: ((identifier) @finding)
reviewed:
  module/routing:
    n: 1
  namespace/routing:
    n: 2
`

func shapedRecord(shape string, n float64) *findings.Record {
	r := recordtest.Located("routing", "a.ts", 1, "x\n", findings.Facts{"n": n})
	r.Definition = "routing"
	r.Shape = shape
	return r
}

// TestReviewsPerShape: a record is compared with its own shape's reviewed
// facts, and a build that located one shape neither flags nor drops the
// other shape's entry.
func TestReviewsPerShape(t *testing.T) {
	d, err := findings.Parse([]byte(shapedDef), "routing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cat := &findings.Catalog{Definitions: []*findings.Definition{d}}
	if flags := Reviews(cat, recordtest.Doc(shapedRecord("namespace", 2))); len(flags) != 0 {
		t.Errorf("namespace record with its reviewed facts: flags %+v, want none", flags)
	}
	flags := Reviews(cat, recordtest.Doc(shapedRecord("module", 2)))
	if len(flags) != 1 || flags[0].Review != findings.ReviewNeeded {
		t.Errorf("module record with the namespace facts: flags %+v, want one, %q", flags, findings.ReviewNeeded)
	}
	accepted, _ := Accepted(cat, recordtest.Doc(shapedRecord("module", 3)), at)
	got := map[string]findings.Facts{}
	for k, e := range accepted[d] {
		got[k] = e.Facts
	}
	want := map[string]findings.Facts{"module/routing": {"n": 3.0}, "namespace/routing": {"n": 2}}
	if !reflect.DeepEqual(findings.Normalize(got["module/routing"]), findings.Normalize(want["module/routing"])) || !findings.EqualFacts(got["namespace/routing"], want["namespace/routing"]) || len(got) != 2 {
		t.Errorf("accepted %v, want %v (the namespace entry kept)", got, want)
	}
}
