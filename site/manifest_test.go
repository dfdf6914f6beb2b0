package site

import (
	"os"
	"path/filepath"
	"reflect"
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
