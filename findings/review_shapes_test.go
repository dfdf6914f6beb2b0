package findings

import (
	"reflect"
	"testing"
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

func shapedRecord(shape string, n float64) *Record {
	r := located("routing", "a.ts", 1, "x\n", Facts{"n": n})
	r.Definition = "routing"
	r.Shape = shape
	return r
}

// TestReviewsPerShape: a record is compared with its own shape's reviewed
// facts, and a build that located one shape neither flags nor drops the
// other shape's entry.
func TestReviewsPerShape(t *testing.T) {
	d, err := Parse([]byte(shapedDef), "routing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cat := &Catalog{Definitions: []*Definition{d}}
	if flags := Reviews(cat, doc(shapedRecord("namespace", 2))); len(flags) != 0 {
		t.Errorf("namespace record with its reviewed facts: flags %+v, want none", flags)
	}
	flags := Reviews(cat, doc(shapedRecord("module", 2)))
	if len(flags) != 1 || flags[0].Review != ReviewNeeded {
		t.Errorf("module record with the namespace facts: flags %+v, want one, %q", flags, ReviewNeeded)
	}
	got := Accepted(cat, doc(shapedRecord("module", 3)))[d]
	want := map[string]Facts{"module/routing": {"n": 3.0}, "namespace/routing": {"n": 2}}
	if !reflect.DeepEqual(Normalize(got["module/routing"]), Normalize(want["module/routing"])) || !EqualFacts(got["namespace/routing"], want["namespace/routing"]) || len(got) != 2 {
		t.Errorf("accepted %v, want %v (the namespace entry kept)", got, want)
	}
}
