package verify

import (
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/source"
)

func TestFindLines(t *testing.T) {
	data := []byte("a\nfoo\nbar\nx foo\nbar\nfoo\nbar\nend")
	tests := []struct {
		name string
		want string
		near int
		ok   bool
		got  findings.Lines
	}{
		{"aligned, nearest to line 1", "foo\nbar\n", 1, true, findings.Lines{Start: 2, End: 3}},
		{"aligned, nearest to line 7", "foo\nbar\n", 7, true, findings.Lines{Start: 6, End: 7}},
		{"mid-line occurrence does not count", "x foo\n", 1, true, findings.Lines{Start: 4, End: 4}},
		{"only mid-line", "oo\nbar\n", 1, false, findings.Lines{}},
		{"no final newline: must end the file", "end", 1, true, findings.Lines{Start: 8, End: 8}},
		{"no final newline, not at the end", "bar", 1, false, findings.Lines{}},
		{"whole file", string(data), 1, true, findings.Lines{Start: 1, End: 8}},
		{"absent", "nope\n", 1, false, findings.Lines{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := FindLines(data, []byte(tt.want), tt.near)
			if ok != tt.ok || got != tt.got {
				t.Fatalf("FindLines(%q) = %v, %v; want %v, %v", tt.want, got, ok, tt.got, tt.ok)
			}
			if ok {
				// The range found must give back exactly the bytes under the hash rule.
				raw, err := source.SpanBytes(data, got.Start, got.End)
				if err != nil || string(raw) != tt.want {
					t.Errorf("source.SpanBytes(%v) = %q, %v; want %q", got, raw, err, tt.want)
				}
			}
		})
	}
}
