package review

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

const defHead = `id: limits
page: tools
section: What the model sees of tool results
title: Limits
claim: >
  Output is cut.
when: Always.
path: a.ts
query: |
  ((identifier) @finding)
# a comment the rewrite must keep
`

func TestRewriteReviewedKeepsTheRest(t *testing.T) {
	reviewed := map[string]findings.Reviewed{
		"limits": {Facts: findings.Facts{"max": 51200.0, "marker": "\n... cut ...\n", "flag": "yes", "list": []any{"b", "a"}, "empty": []any{}},
			Code: []findings.CheckedCode{{SHA256: strings.Repeat("a", 64), At: "v1.0.0 (1234567)", Commit: strings.Repeat("1", 40)}, {SHA256: strings.Repeat("b", 64), At: "plain directory"}}},
	}
	tests := []struct {
		name, in string
	}{
		{"replaces a section", defHead + "reviewed:\n  limits:\n    max: 2000\n    # stale\n"},
		{"appends a section", defHead},
		{"appends after a last line without newline", strings.TrimSuffix(defHead, "\n")},
		{"replaces an empty section", defHead + "reviewed: {}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := RewriteReviewed([]byte(tt.in), reviewed)
			if err != nil {
				t.Fatal(err)
			}
			head := tt.in
			if i := strings.Index(tt.in, "reviewed:"); i >= 0 {
				head = tt.in[:i]
			}
			if !bytes.HasPrefix(out, []byte(head)) {
				t.Errorf("the bytes before the section changed:\n%s", out)
			}
			d, err := findings.Parse(out, "limits.yaml")
			if err != nil {
				t.Fatalf("rewritten file does not parse: %v\n%s", err, out)
			}
			if !sameReviewed(d.Reviewed, reviewed) {
				t.Errorf("reviewed reads back as %v", d.Reviewed)
			}
			again, err := RewriteReviewed(out, reviewed)
			if err != nil || !bytes.Equal(again, out) {
				t.Errorf("a second rewrite changed the file (err %v)", err)
			}
		})
	}
}

func TestRewriteReviewedNeedsLastKey(t *testing.T) {
	in := strings.Replace(defHead, "path: a.ts\n", "reviewed:\n  limits: {}\npath: a.ts\n", 1)
	_, err := RewriteReviewed([]byte(in), map[string]findings.Reviewed{"limits": {}})
	if err == nil || !strings.Contains(err.Error(), "last top-level key") || !strings.Contains(err.Error(), `"path"`) {
		t.Errorf("error %v, want one naming the key after reviewed", err)
	}
}

func TestRewriteReviewedIsDeterministic(t *testing.T) {
	reviewed := map[string]findings.Reviewed{
		"b-rec": {Facts: findings.Facts{"z": 1.0, "a": []any{map[string]any{"y": "1", "x": "2"}}}},
		"a-rec": {Facts: findings.Facts{"k": true}, Code: []findings.CheckedCode{{SHA256: strings.Repeat("c", 64), At: "v2", Commit: strings.Repeat("2b", 20)}}},
	}
	first, err := RewriteReviewed([]byte(defHead), reviewed)
	if err != nil {
		t.Fatal(err)
	}
	want := defHead + reviewedHeader + "reviewed:\n  a-rec:\n    k: true\n    _code:\n      - at: v2\n        commit: " + strings.Repeat("2b", 20) + "\n        sha256: " + strings.Repeat("c", 64) + "\n  b-rec:\n    a:\n      - x: \"2\"\n        y: \"1\"\n    z: 1\n"
	if string(first) != want {
		t.Errorf("got\n%s\nwant\n%s", first, want)
	}
}

func reviewCatalog(t *testing.T, dir string, files map[string]string) *findings.Catalog {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := findings.Load(os.DirFS(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func reviewRecord(def, id string, facts findings.Facts) *findings.Record {
	return &findings.Record{ID: id, Definition: def, Status: findings.StatusLocated, Facts: findings.Normalize(facts),
		Location: &findings.Location{Path: "a.ts", Lines: findings.Lines{Start: 1, End: 1}, SHA256: strings.Repeat("e", 64)}}
}

// at is where the tests accept: a commit of a tag.
var at = findings.CheckedCode{At: "v1.2.3 (abcdef0)", Commit: strings.Repeat("a", 40)}

func TestReviewsAndAccept(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"limits.yaml": defHead + "reviewed:\n  limits:\n    max: 2000\n    gone: x\n",
		"files.yaml": strings.Replace(strings.Replace(defHead, "id: limits", "id: files", 1), "query:", "expect: all\nkey: finding\nquery:", 1) +
			"reviewed:\n  files-a:\n    n: 1\n  files-old:\n    n: 3\n",
		"same.yaml":    strings.Replace(defHead, "id: limits", "id: same", 1) + "reviewed:\n  same:\n    n: 1\n",
		"missing.yaml": strings.Replace(defHead, "id: limits", "id: missing", 1) + "reviewed:\n  missing:\n    n: 1\n",
	}
	cat := reviewCatalog(t, dir, files)
	doc := &findings.Document{Findings: []*findings.Record{
		reviewRecord("limits", "limits", findings.Facts{"max": 51200, "added": "y"}),
		reviewRecord("files", "files-a", findings.Facts{"n": 1}),
		reviewRecord("files", "files-b", findings.Facts{"n": 2}),
		reviewRecord("same", "same", findings.Facts{"n": 1}),
		{ID: "missing", Definition: "missing", Status: findings.StatusMissing, Facts: findings.Facts{}},
	}}
	flags := Reviews(cat, doc)
	got := map[string]string{}
	for _, f := range flags {
		var names []string
		for _, c := range f.Changes {
			names = append(names, c.Name)
		}
		got[f.ID] = f.Review + ": " + strings.Join(names, ",")
	}
	want := map[string]string{
		"limits":    findings.ReviewNeeded + ": added,gone,max",
		"files-b":   findings.ReviewMissing + ": n",
		"files-old": Gone + ": n",
	}
	if len(got) != len(want) {
		t.Errorf("flags %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %q, want %q", id, got[id], w)
		}
	}

	accepted, replaced := Accepted(cat, doc, at)
	if len(replaced) != 0 {
		t.Errorf("replaced %+v: no entry recorded code", replaced)
	}
	written, err := AcceptReviews(dir, accepted)
	if err != nil {
		t.Fatal(err)
	}
	// same.yaml keeps its facts and gains the code they were read with.
	if len(written) != 3 || filepath.Base(written[0]) != "files.yaml" || filepath.Base(written[1]) != "limits.yaml" || filepath.Base(written[2]) != "same.yaml" {
		t.Errorf("wrote %v, want files.yaml, limits.yaml and same.yaml", written)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "same.yaml")); !strings.HasSuffix(string(data), "reviewed:\n  same:\n    n: 1\n    _code:\n      - at: v1.2.3 (abcdef0)\n        commit: "+at.Commit+"\n        sha256: "+strings.Repeat("e", 64)+"\n") {
		t.Errorf("same.yaml:\n%s", data)
	}
	for _, name := range []string{"missing.yaml"} {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		if string(data) != files[name] {
			t.Errorf("%s changed", name)
		}
	}
	cat = reviewCatalog(t, dir, nil)
	if flags := Reviews(cat, doc); len(flags) != 0 {
		t.Errorf("after accepting, still flagged: %+v", flags)
	}
	if again, _ := Accepted(cat, doc, at); len(again) != 0 {
		t.Errorf("second accept wrote %v (err %v)", again, err)
	}
}

// TestReviewOf holds the one review verdict that builds record and review
// lists.
func TestReviewOf(t *testing.T) {
	d := &findings.Definition{ID: "limits", Reviewed: map[string]findings.Reviewed{"limits": {Facts: findings.Facts{"max": 2000}}}}
	tests := []struct {
		id    string
		facts findings.Facts
		want  string
	}{
		{"limits", findings.Facts{"max": 2000.0}, ""},
		{"limits", findings.Facts{"max": 1000}, findings.ReviewNeeded},
		{"limits", nil, findings.ReviewNeeded},
		{"limits-2", findings.Facts{"max": 2000}, findings.ReviewMissing},
	}
	for _, tt := range tests {
		if got := findings.ReviewOf(d, tt.id, tt.facts); got != tt.want {
			t.Errorf("ReviewOf(%s, %v) = %q, want %q", tt.id, tt.facts, got, tt.want)
		}
	}
}

// TestAcceptedCode: an entry whose facts hold gains the code read now
// (once); one whose facts change keeps the code read now alone, and is
// listed as replaced when it held code read at a commit.
func TestAcceptedCode(t *testing.T) {
	sha := func(c string) string { return strings.Repeat(c, 64) }
	old := findings.CheckedCode{SHA256: sha("1"), At: "v9", Commit: strings.Repeat("9", 40)}
	d := &findings.Definition{ID: "limits", Reviewed: map[string]findings.Reviewed{
		"limits": {Facts: findings.Facts{"max": 2000}, Code: []findings.CheckedCode{old}},
	}}
	cat := &findings.Catalog{Definitions: []*findings.Definition{d}}
	rec := func(max float64, c string) *findings.Document {
		r := reviewRecord("limits", "limits", findings.Facts{"max": max})
		r.Location.SHA256 = sha(c)
		return &findings.Document{Findings: []*findings.Record{r}}
	}
	now := func(c string) findings.CheckedCode { n := at; n.SHA256 = sha(c); return n }

	got, replaced := Accepted(cat, rec(2000, "2"), at)
	if e := got[d]["limits"]; len(replaced) != 0 || !reflect.DeepEqual(e.Code, []findings.CheckedCode{old, now("2")}) {
		t.Errorf("same facts, new code: %+v, replaced %+v; want the old version and the new one", e, replaced)
	}
	if got, replaced := Accepted(cat, rec(2000, "1"), at); len(got) != 0 || len(replaced) != 0 {
		t.Errorf("same facts, code checked already: %+v %+v, want nothing to accept", got, replaced)
	}
	got, replaced = Accepted(cat, rec(1000, "3"), at)
	if e := got[d]["limits"]; !reflect.DeepEqual(e.Code, []findings.CheckedCode{now("3")}) || !findings.EqualFacts(e.Facts, findings.Facts{"max": 1000}) {
		t.Errorf("new facts: %+v, want them with the code read now alone", e)
	}
	if len(replaced) != 1 || replaced[0].Key != "limits" || !reflect.DeepEqual(replaced[0].Checked, []findings.CheckedCode{old}) {
		t.Errorf("replaced %+v, want the entry checked at v9", replaced)
	}

	// An entry checked at a commit whose record is gone is listed too:
	// dropping it flags that commit's record as not reviewed.
	d.Reviewed["limits-old"] = findings.Reviewed{Facts: findings.Facts{"max": 1}, Code: []findings.CheckedCode{old}}
	got, replaced = Accepted(cat, rec(2000, "1"), at)
	if _, kept := got[d]["limits-old"]; kept || len(replaced) != 1 || replaced[0].Key != "limits-old" || !replaced[0].Dropped {
		t.Errorf("gone record: accepted %+v, replaced %+v; want the entry dropped and listed as dropped", got[d], replaced)
	}
	delete(d.Reviewed, "limits-old")

	flags := Reviews(cat, rec(2000, "2"))
	if len(flags) != 1 || flags[0].Review != CodeChanged || flags[0].FactsDiffer() || flags[0].Checked == nil || *flags[0].Checked != old {
		t.Errorf("flags %+v, want one CodeChanged naming v9", flags)
	}
	if flags := Reviews(cat, rec(2000, "1")); len(flags) != 0 {
		t.Errorf("checked code: flags %+v", flags)
	}
}
