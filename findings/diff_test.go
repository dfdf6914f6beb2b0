package findings

import (
	"github.com/keyfindings/keyfindings/mdtext"

	"reflect"
	"strings"
	"testing"
)

func TestCompareStatuses(t *testing.T) {
	const body = "export function f() {\n  return 1\n}\n"
	tests := []struct {
		name     string
		old, new *Record
		status   string
		note     string // substring
		hunks    int
		facts    []string
		same     bool // nothing differs, though the status is not unchanged
	}{
		{"unchanged", located("a", "x.ts", 3, body, nil), located("a", "x.ts", 3, body, nil), DiffUnchanged, "", 0, nil, false},
		{"other lines", located("a", "x.ts", 3, body, nil), located("a", "x.ts", 9, body, nil), DiffMoved, "", 0, nil, false},
		{"other file", located("a", "x.ts", 3, body, nil), located("a", "y/x.ts", 3, body, nil), DiffMoved, "", 0, nil, false},
		{"bytes differ", located("a", "x.ts", 3, body, Facts{"n": 1}), located("a", "x.ts", 3, strings.Replace(body, "1", "2", 1), Facts{"n": 2}), DiffChanged, "", 1, []string{"n"}, false},
		{"same bytes, fact from outside differs", located("a", "x.ts", 3, body, Facts{"file": "a.txt"}), located("a", "x.ts", 3, body, Facts{"file": "b.txt"}), DiffChanged, "byte-identical", 0, []string{"file"}, false},
		{"same facts in other number types", located("a", "x.ts", 3, body, Facts{"n": 1}), located("a", "x.ts", 3, body, Facts{"n": 1.0}), DiffUnchanged, "", 0, nil, false},
		{"added", nil, located("a", "x.ts", 3, body, nil), DiffAdded, "", 0, nil, false},
		{"removed", located("a", "x.ts", 3, body, nil), nil, DiffRemoved, "", 0, nil, false},
		{"lost", located("a", "x.ts", 3, body, nil), notLocated("a", StatusMissing, "file not found: x.ts"), DiffLost, "located in the old source; missing in the new one: file not found: x.ts", 0, nil, false},
		{"ambiguous now", located("a", "x.ts", 3, body, nil), notLocated("a", StatusAmbiguous, "2 places match"), DiffLost, "ambiguous in the new one: 2 places match", 0, nil, false},
		{"in neither", notLocated("a", StatusMissing, "no match in x.ts"), notLocated("a", StatusMissing, "no match in x.ts"), DiffMissing, "not located in either source", 0, nil, true},
		{"in neither, for other reasons", notLocated("a", StatusMissing, "no match in x.ts"), notLocated("a", StatusMissing, "file not found: x.ts"), DiffMissing, "old missing: no match in x.ts; new missing: file not found", 0, nil, false},
		{"new but not located", nil, notLocated("a", StatusAmbiguous, "2 places match"), DiffMissing, "a new finding, not located: ambiguous: 2 places match", 0, nil, false},
		{"newly located", notLocated("a", StatusMissing, "file not found: x.ts"), located("a", "x.ts", 3, body, nil), DiffFound, "newly located; in the old source it was missing", 0, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a, b []*Record
			if tt.old != nil {
				a = append(a, tt.old)
			}
			if tt.new != nil {
				b = append(b, tt.new)
			}
			d := Compare(doc(a...), doc(b...))
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
			if d.Changed() != (tt.status != DiffUnchanged && !tt.same) {
				t.Errorf("Changed() = %v for %s", d.Changed(), tt.status)
			}
		})
	}
}

func TestCompareOrder(t *testing.T) {
	r := func(id string) *Record { return located(id, "x.ts", 1, "x\n", nil) }
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
		var a, b []*Record
		for _, id := range tt.old {
			a = append(a, r(id))
		}
		for _, id := range tt.new {
			b = append(b, r(id))
		}
		var got []string
		for _, f := range Compare(doc(a...), doc(b...)).Findings {
			got = append(got, f.ID)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("order of %v → %v: %v, want %s", tt.old, tt.new, got, tt.want)
		}
	}
}

func TestFactItems(t *testing.T) {
	old := Facts{"tools": []any{"bash", "read", "edit"}, "max": 2000}
	new := Facts{"tools": []any{"bash", "edit", "grep"}, "max": 1000, "extra": "x"}
	got := factChanges(old, new)
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
	d := Compare(doc(located("a", "x.ts", 1, "x\n", nil)), doc(located("a", "x.ts", 1, tricky, nil)))
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
	changes := factChanges(
		Facts{"tools": []any{"bash", "read"}, "max": 2000, "gone": []any{"x"}},
		Facts{"tools": []any{"bash", "grep"}, "max": 1000, "new": []any{"a", "b"}},
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
	old := located("a", "x\r\n# h.ts", 3, "a\n", Facts{"s": "x"})
	new := located("a", "x\r\n# h.ts", 3, "a\rb\x00\r\n\u202e\n", Facts{"s": "y\rz"})
	miss := notLocated("b", StatusMissing, "no match\r\n# Heading\x1b[31m")
	d := Compare(doc(old, located("b", "y.ts", 1, "y\n", nil)), doc(new, miss))
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
