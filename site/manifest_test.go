package site

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReadReleasesManifestV1: a manifest of version 1, whose one key
// covered every release, reads as one key per release, so a directory
// written before keeps its releases reusable.
func TestReadReleasesManifestV1(t *testing.T) {
	dir := t.TempDir()
	v1 := `{"schema": "keyfindings/releases-manifest/v1", "tool": "t", "catalog": "c", "repo": "https://example.com/r",
  "releases": [{"tag": "v1.0.0", "commit": "abc", "findings_sha256": "f0"}, {"tag": "v1.1.0", "commit": "def", "findings_sha256": "f1"}]}`
	for name, data := range map[string]string{Marker: markerText, ReleasesManifestFile: v1} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, note, err := ReadReleasesManifest(dir)
	if err != nil || note != "" || m == nil {
		t.Fatalf("ReadReleasesManifest: %v, %q, %v", m, note, err)
	}
	key := ReleasesKey{Tool: "t", Catalog: "c", Repo: "https://example.com/r"}
	want := []ManifestRelease{{Tag: "v1.0.0", Commit: "abc", ReleasesKey: key, FindingsSHA256: "f0"}, {Tag: "v1.1.0", Commit: "def", ReleasesKey: key, FindingsSHA256: "f1"}}
	if m.Schema != ReleasesManifestSchema || len(m.Releases) != 2 || !reflect.DeepEqual(m.Releases, want) {
		t.Errorf("read %+v, want %+v", m, want)
	}
}

// TestReleasesManifestSameRecords: a record summary that is the same as
// the release before's is written as its id alone, and read back whole;
// a manifest of version 3 (every summary whole) still reads, and one
// whose id names no record of the release before is unreadable (nothing
// is reused).
func TestReleasesManifestSameRecords(t *testing.T) {
	a := RecordSummary{ID: "a", Page: "tools", Title: "A", Status: "located", Path: "x.ts", Lines: "1-2", SHA256: "s1", Facts: "f1"}
	b := RecordSummary{ID: "b", Page: "tools", Title: "B", Status: "absent", Problem: "introduced in v2"}
	a2 := a
	a2.SameAs = "v1"
	b2 := RecordSummary{ID: "b", Page: "tools", Title: "B", Status: "located", Path: "y.ts", Lines: "3-4", SHA256: "s2"}
	m := &ReleasesManifest{Schema: ReleasesManifestSchema, Pages: []string{"v1.html"}, Releases: []ManifestRelease{
		{Tag: "v1", Commit: "c1", FindingsSHA256: "h1", Records: []RecordSummary{a, b}},
		{Tag: "v2", Commit: "c2", FindingsSHA256: "h2", Records: []RecordSummary{a2, b2}},
		{Tag: "v3", Commit: "c3", FindingsSHA256: "h3", Records: []RecordSummary{b2, a2}},
		{Tag: "v4", Commit: "c4", FindingsSHA256: "h4"},
	}}
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if want := `"records":["b","a"]`; !strings.Contains(lines[3], want) {
		t.Errorf("v3's line %s lacks %s", lines[3], want)
	}
	if strings.Contains(lines[2], `["a"`) || strings.Contains(lines[2], `"b"]`) {
		t.Errorf("v2's line %s writes a changed record as the same", lines[2])
	}
	read := func(data string) (*ReleasesManifest, string) {
		t.Helper()
		dir := t.TempDir()
		for name, data := range map[string]string{Marker: markerText, ReleasesManifestFile: data} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, note, err := ReadReleasesManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		return got, note
	}
	if got, note := read(string(data)); note != "" || !reflect.DeepEqual(got, m) {
		t.Errorf("read back %+v (%q), want %+v", got, note, m)
	}

	var v3 bytes.Buffer
	v3.WriteString(`{"schema":"keyfindings/releases-manifest/v3","pages":["v1.html"],"releases":[`)
	for i, e := range m.Releases {
		line, _ := json.Marshal(e)
		if i > 0 {
			v3.WriteString(",\n")
		}
		v3.Write(line)
	}
	v3.WriteString("]}\n")
	if got, note := read(v3.String()); note != "" || !reflect.DeepEqual(got, m) {
		t.Errorf("version 3 read as %+v (%q), want %+v", got, note, m)
	}

	bad := strings.Replace(string(data), `"records":[{"id":"a"`, `"records":["a"`, 1)
	if bad == string(data) {
		t.Fatal("no first record to break")
	}
	if got, note := read(bad); got != nil || !strings.Contains(note, "extracting every release again") {
		t.Errorf("a manifest whose first release names a record of none before: %+v, %q", got, note)
	}
}
