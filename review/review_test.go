package review

import (
	"bytes"
	"os"
	"path/filepath"
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
	reviewed := map[string]findings.Facts{
		"limits": {"max": 51200.0, "marker": "\n... cut ...\n", "flag": "yes", "list": []any{"b", "a"}, "empty": []any{}},
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
	_, err := RewriteReviewed([]byte(in), map[string]findings.Facts{"limits": {}})
	if err == nil || !strings.Contains(err.Error(), "last top-level key") || !strings.Contains(err.Error(), `"path"`) {
		t.Errorf("error %v, want one naming the key after reviewed", err)
	}
}

func TestRewriteReviewedIsDeterministic(t *testing.T) {
	reviewed := map[string]findings.Facts{
		"b-rec": {"z": 1.0, "a": []any{map[string]any{"y": "1", "x": "2"}}},
		"a-rec": {"k": true},
	}
	first, err := RewriteReviewed([]byte(defHead), reviewed)
	if err != nil {
		t.Fatal(err)
	}
	want := defHead + reviewedHeader + "reviewed:\n  a-rec:\n    k: true\n  b-rec:\n    a:\n      - x: \"2\"\n        y: \"1\"\n    z: 1\n"
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
	return &findings.Record{ID: id, Definition: def, Status: findings.StatusLocated, Facts: findings.Normalize(facts)}
}

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

	written, err := AcceptReviews(dir, cat, doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 2 || filepath.Base(written[0]) != "files.yaml" || filepath.Base(written[1]) != "limits.yaml" {
		t.Errorf("wrote %v, want files.yaml and limits.yaml", written)
	}
	for _, name := range []string{"same.yaml", "missing.yaml"} {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		if string(data) != files[name] {
			t.Errorf("%s changed", name)
		}
	}
	cat = reviewCatalog(t, dir, nil)
	if flags := Reviews(cat, doc); len(flags) != 0 {
		t.Errorf("after accepting, still flagged: %+v", flags)
	}
	if again, err := AcceptReviews(dir, cat, doc); err != nil || len(again) != 0 {
		t.Errorf("second accept wrote %v (err %v)", again, err)
	}
}

// TestReviewOf holds the one review verdict that builds record and review
// lists.
func TestReviewOf(t *testing.T) {
	d := &findings.Definition{ID: "limits", Reviewed: map[string]findings.Facts{"limits": {"max": 2000}}}
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
