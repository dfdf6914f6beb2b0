package diff

import (
	"bytes"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/recordtest"
)

// TestDiffWithAbsent: absent records go through Compare and every report
// format without a crash. How diff counts "absent → located" apart is for
// the diff code to decide; today an absent record is not located, so it
// is counted like a missing one.
func TestDiffWithAbsent(t *testing.T) {
	const body = "export function f() {\n  return 1\n}\n"
	absent := recordtest.NotLocated("a", findings.StatusAbsent, "introduced in v1.15.5")
	cases := []struct {
		name     string
		old, new *findings.Record
		status   string
		differs  bool
	}{
		{"absent to located", absent, recordtest.Located("a", "x.ts", 3, body, nil), Introduced, true},
		{"located to absent", recordtest.Located("a", "x.ts", 3, body, nil), recordtest.NotLocated("a", findings.StatusAbsent, "removed in v1.17.0"), Retired, true},
		{"absent on both sides", absent, recordtest.NotLocated("a", findings.StatusAbsent, "introduced in v1.15.5"), Absent, false},
		{"absent to missing", absent, recordtest.NotLocated("a", findings.StatusMissing, "no match in x.ts"), Missing, true},
		{"missing to located", recordtest.NotLocated("a", findings.StatusMissing, "no match in x.ts"), recordtest.Located("a", "x.ts", 3, body, nil), Found, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := &findings.Document{Schema: findings.Schema, Findings: []*findings.Record{tc.old}}
			new := &findings.Document{Schema: findings.Schema, Findings: []*findings.Record{tc.new}}
			d := Compare(old, new)
			if len(d.Findings) != 1 {
				t.Fatalf("%d findings compared, want 1", len(d.Findings))
			}
			if f := d.Findings[0]; f.Status != tc.status || f.Differs() != tc.differs {
				t.Errorf("status %s (differs %v), want %s (differs %v)", f.Status, f.Differs(), tc.status, tc.differs)
			}
			var buf bytes.Buffer
			if err := d.WriteText(&buf, ReportOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := d.WriteMarkdown(&buf, ReportOptions{}); err != nil {
				t.Fatal(err)
			}
			_ = d.Summary()
			_ = d.Changed()
		})
	}
}

// TestDecodeAbsent: findings.json with absent records decodes; an old
// file without the status or shape field still does.
func TestDecodeAbsent(t *testing.T) {
	doc := &findings.Document{Schema: findings.Schema, Findings: []*findings.Record{
		recordtest.NotLocated("a", findings.StatusAbsent, "introduced in v1.15.5"),
		recordtest.NotLocated("b", findings.StatusMissing, "no match in x.ts"),
	}}
	data, err := doc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := findings.DecodeDocument(data, "findings.json")
	if err != nil {
		t.Fatalf("absent record rejected: %v", err)
	}
	if !back.Findings[0].Absent() || back.Findings[0].Located() {
		t.Errorf("decoded status %q", back.Findings[0].Status)
	}
	if bytes.Contains(data, []byte(`"shape"`)) {
		t.Errorf("a record without a shape writes the field:\n%s", data)
	}
	bad := strings.Replace(string(data), `"absent"`, `"gone"`, 1)
	if _, err := findings.DecodeDocument([]byte(bad), "findings.json"); err == nil || !strings.Contains(err.Error(), "absent") {
		t.Errorf("unknown status: %v, want an error listing absent among the statuses", err)
	}
}
