package findings

import (
	"strings"
	"testing"
)

const reviewedDef = `id: limits
page: tools
section: What the model sees of tool results
title: Limits
claim: Output is cut.
when: Always.
path: a.ts
query: ((identifier) @finding)
reviewed:
  limits:
    max: 2000
`

func TestReviewedCode(t *testing.T) {
	a, b := strings.Repeat("a", 64), strings.Repeat("b", 64)
	commit := strings.Repeat("c", 40)
	d, err := Parse([]byte(reviewedDef+"    _code:\n      - {sha256: "+a+", at: v1, commit: "+commit+"}\n      - {sha256: "+b+", at: plain directory}\n"), "limits.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e := d.Reviewed["limits"]
	if !EqualFacts(e.Facts, Facts{"max": 2000}) || len(e.Code) != 2 || e.Code[0] != (CheckedCode{SHA256: a, At: "v1", Commit: commit}) {
		t.Fatalf("entry %+v: want the facts without _code, and both versions", e)
	}
	if ReviewOf(d, "limits", Facts{"max": 2000}) != "" {
		t.Error("_code compared as a fact")
	}
	if c := CodeDiffers(d, "limits", strings.Repeat("d", 64)); c == nil || c.SHA256 != b {
		t.Errorf("other bytes: %+v, want the newest version", c)
	}
	if c := CodeDiffers(d, "limits", a); c != nil {
		t.Errorf("checked bytes: %+v, want nil", c)
	}
	old, err := Parse([]byte(reviewedDef), "limits.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c := CodeDiffers(old, "limits", a); c != nil {
		t.Errorf("entry without code: %+v, want nil (nothing to compare with)", c)
	}
}

func TestReviewedCodeErrors(t *testing.T) {
	for name, tail := range map[string]string{
		"bad sha256":    "    _code:\n      - {sha256: abc, at: v1}\n",
		"no at":         "    _code:\n      - {sha256: " + strings.Repeat("a", 64) + "}\n",
		"bad commit":    "    _code:\n      - {sha256: " + strings.Repeat("a", 64) + ", at: v1, commit: main}\n",
		"reserved key":  "    _seen: yes\n",
		"not a list":    "    _code: yes\n",
		"unknown field": "    _code:\n      - {sha256: " + strings.Repeat("a", 64) + ", at: v1, comit: " + strings.Repeat("c", 40) + "}\n",
	} {
		if _, err := Parse([]byte(reviewedDef+tail), "limits.yaml"); err == nil {
			t.Errorf("%s: parsed", name)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error on several lines: %q", name, err)
		}
	}
	def := strings.Replace(reviewedDef, "query: ((identifier) @finding)\n", "query: ((identifier) @finding)\nfacts:\n  - name: _x\n    capture: finding\n", 1)
	if _, err := Parse([]byte(def), "limits.yaml"); err == nil || !strings.Contains(err.Error(), "reserved") {
		t.Errorf("fact named _x: %v, want an error saying the name is reserved", err)
	}
}
