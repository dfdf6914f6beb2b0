package diff

import (
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/recordtest"
	"github.com/keyfindings/keyfindings/mdtext"

	"reflect"
	"strings"
	"testing"
)

func TestCompareStatuses(t *testing.T) {
	const body = "export function f() {\n  return 1\n}\n"
	tests := []struct {
		name     string
		old, new *findings.Record
		status   string
		note     string // substring
		hunks    int
		facts    []string
		same     bool // nothing differs, though the status is not unchanged
	}{
		{"unchanged", recordtest.Located("a", "x.ts", 3, body, nil), recordtest.Located("a", "x.ts", 3, body, nil), Unchanged, "", 0, nil, false},
		{"other lines", recordtest.Located("a", "x.ts", 3, body, nil), recordtest.Located("a", "x.ts", 9, body, nil), Moved, "", 0, nil, false},
		{"other file", recordtest.Located("a", "x.ts", 3, body, nil), recordtest.Located("a", "y/x.ts", 3, body, nil), Moved, "", 0, nil, false},
		{"bytes differ", recordtest.Located("a", "x.ts", 3, body, findings.Facts{"n": 1}), recordtest.Located("a", "x.ts", 3, strings.Replace(body, "1", "2", 1), findings.Facts{"n": 2}), Changed, "", 1, []string{"n"}, false},
		{"same bytes, fact from outside differs", recordtest.Located("a", "x.ts", 3, body, findings.Facts{"file": "a.txt"}), recordtest.Located("a", "x.ts", 3, body, findings.Facts{"file": "b.txt"}), Changed, "byte-identical", 0, []string{"file"}, false},
		{"same facts in other number types", recordtest.Located("a", "x.ts", 3, body, findings.Facts{"n": 1}), recordtest.Located("a", "x.ts", 3, body, findings.Facts{"n": 1.0}), Unchanged, "", 0, nil, false},
		{"added", nil, recordtest.Located("a", "x.ts", 3, body, nil), Added, "", 0, nil, false},
		{"removed", recordtest.Located("a", "x.ts", 3, body, nil), nil, Removed, "", 0, nil, false},
		{"lost", recordtest.Located("a", "x.ts", 3, body, nil), recordtest.NotLocated("a", findings.StatusMissing, "file not found: x.ts"), Lost, "located in the old source; missing in the new one: file not found: x.ts", 0, nil, false},
		{"ambiguous now", recordtest.Located("a", "x.ts", 3, body, nil), recordtest.NotLocated("a", findings.StatusAmbiguous, "2 places match"), Lost, "ambiguous in the new one: 2 places match", 0, nil, false},
		{"in neither", recordtest.NotLocated("a", findings.StatusMissing, "no match in x.ts"), recordtest.NotLocated("a", findings.StatusMissing, "no match in x.ts"), Missing, "not located in either source", 0, nil, true},
		{"in neither, for other reasons", recordtest.NotLocated("a", findings.StatusMissing, "no match in x.ts"), recordtest.NotLocated("a", findings.StatusMissing, "file not found: x.ts"), Missing, "old missing: no match in x.ts; new missing: file not found", 0, nil, false},
		{"new but not located", nil, recordtest.NotLocated("a", findings.StatusAmbiguous, "2 places match"), Missing, "a new finding, not located: ambiguous: 2 places match", 0, nil, false},
		{"newly located", recordtest.NotLocated("a", findings.StatusMissing, "file not found: x.ts"), recordtest.Located("a", "x.ts", 3, body, nil), Found, "newly located; in the old source it was missing", 0, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a, b []*findings.Record
			if tt.old != nil {
				a = append(a, tt.old)
			}
			if tt.new != nil {
				b = append(b, tt.new)
			}
			d := Compare(recordtest.Doc(a...), recordtest.Doc(b...))
			if len(d.Findings) != 1 {
				t.Fatalf("%d findings, want 1", len(d.Findings))
			}
			f := d.Findings[0]
			if f.Status != tt.status {
				t.Errorf("status %s, want %s", f.Status, tt.status)
			}
			if !strings.Contains(f.Note, tt.note) || (tt.note == "") != (f.Note == "") {
				t.Errorf("note %q, want it to hold %q", f.Note, tt.note)
			}
			if len(f.Hunks) != tt.hunks {
				t.Errorf("%d hunks, want %d", len(f.Hunks), tt.hunks)
			}
			var names []string
			for _, fc := range f.Facts {
				names = append(names, fc.Name)
			}
			if !reflect.DeepEqual(names, tt.facts) {
				t.Errorf("facts %q, want %q", names, tt.facts)
			}
			if d.Changed() != (tt.status != Unchanged && !tt.same) {
				t.Errorf("Changed() = %v for %s", d.Changed(), tt.status)
			}
		})
	}
}

func TestCompareOrder(t *testing.T) {
	r := func(id string) *findings.Record { return recordtest.Located(id, "x.ts", 1, "x\n", nil) }
	tests := []struct {
		old, new []string
		want     string
	}{
		{[]string{"a", "b", "c"}, []string{"a", "b", "c"}, "a b c"},
		{[]string{"a", "b", "c"}, []string{"a", "c"}, "a b c"},
		{[]string{"b", "c"}, []string{"a", "b", "c"}, "a b c"},
		{[]string{"a", "x", "y", "c"}, []string{"a", "b", "c"}, "a x y b c"},
		{[]string{"x", "a"}, []string{"a"}, "x a"},
		{nil, []string{"a"}, "a"},
		{[]string{"a"}, nil, "a"},
	}
	for _, tt := range tests {
		var a, b []*findings.Record
		for _, id := range tt.old {
			a = append(a, r(id))
		}
		for _, id := range tt.new {
			b = append(b, r(id))
		}
		var got []string
		for _, f := range Compare(recordtest.Doc(a...), recordtest.Doc(b...)).Findings {
			got = append(got, f.ID)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("order of %v → %v: %v, want %s", tt.old, tt.new, got, tt.want)
		}
	}
}

func TestFactItems(t *testing.T) {
	old := findings.Facts{"tools": []any{"bash", "read", "edit"}, "max": 2000}
	new := findings.Facts{"tools": []any{"bash", "edit", "grep"}, "max": 1000, "extra": "x"}
	got := FactChanges(old, new)
	want := []FactChange{
		{Name: "extra", Old: nil, New: "x"},
		{Name: "max", Old: 2000.0, New: 1000.0},
		{Name: "tools", Old: []any{"bash", "read", "edit"}, New: []any{"bash", "edit", "grep"}, Items: []string{` "bash"`, `-"read"`, ` "edit"`, `+"grep"`}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("factChanges:\n got %#v\nwant %#v", got, want)
	}
}

func TestMarkdownFences(t *testing.T) {
	tricky := "const s = `a ``` b ```` c`\n"
	d := Compare(recordtest.Doc(recordtest.Located("a", "x.ts", 1, "x\n", nil)), recordtest.Doc(recordtest.Located("a", "x.ts", 1, tricky, nil)))
	var b strings.Builder
	if err := d.WriteMarkdown(&b, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\n`````diff\n") {
		t.Errorf("excerpt with a run of 4 backticks is not fenced with 5:\n%s", b.String())
	}
	if got := mdtext.CodeSpan("a`b"); got != "``a`b``" {
		t.Errorf("codeSpan = %q", got)
	}
	if got := mdtext.CodeSpan("`x"); got != "`` `x ``" {
		t.Errorf("codeSpan = %q", got)
	}
}

// TestFactLines checks the item-by-item rendering diff and review share.
func TestFactLines(t *testing.T) {
	changes := FactChanges(
		findings.Facts{"tools": []any{"bash", "read"}, "max": 2000, "gone": []any{"x"}},
		findings.Facts{"tools": []any{"bash", "grep"}, "max": 1000, "new": []any{"a", "b"}},
	)
	got := strings.Join(FactLines(changes), "\n")
	want := strings.Join([]string{
		"fact gone:",
		`  - "x"`,
		"fact max: 2000 → 1000",
		"fact new:",
		`  + "a"`,
		`  + "b"`,
		"fact tools:",
		`    "bash"`,
		`  - "read"`,
		`  + "grep"`,
	}, "\n")
	if got != want {
		t.Errorf("FactLines:\n%s\nwant\n%s", got, want)
	}
}

// TestMarkdownControlCharacters checks that CR and other control
// characters from the source cannot break a diff report's lines: in text
// (a problem) they become spaces, in code spans (a path) escapes, in the
// excerpt diff control pictures, as the site's Markdown shows them.
func TestMarkdownControlCharacters(t *testing.T) {
	old := recordtest.Located("a", "x\r\n# h.ts", 3, "a\n", findings.Facts{"s": "x"})
	new := recordtest.Located("a", "x\r\n# h.ts", 3, "a\rb\x00\r\n\u202e\n", findings.Facts{"s": "y\rz"})
	miss := recordtest.NotLocated("b", findings.StatusMissing, "no match\r\n# Heading\x1b[31m")
	d := Compare(recordtest.Doc(old, recordtest.Located("b", "y.ts", 1, "y\n", nil)), recordtest.Doc(new, miss))
	var b strings.Builder
	if err := d.WriteMarkdown(&b, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsAny(out, "\r\x00\x1b\u202e") {
		t.Errorf("report holds a raw control character:\n%q", out)
	}
	for _, want := range []string{
		"`x\\r\\n# h.ts`",        // path in a code span
		"no match  \\# Heading ", // problem as text: controls as spaces
		"+a␍b␀\n+⟨U+202E⟩\n",     // excerpt lines as control pictures
		"`\"y\\rz\"`",            // fact value
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "# ") {
			t.Errorf("source text became a heading: %q", line)
		}
	}
}
