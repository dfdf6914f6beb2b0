package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/keyfindings/keyfindings/internal/buildid"
	"github.com/keyfindings/keyfindings/site"
)

// TestOneBuildIdentity: the releases manifest names the build that
// extracted each release with the same identity the record cache under
// --cache is kept by (internal/buildid), so a rebuilt keyfindings neither
// reuses a release nor reads records another build computed.
func TestOneBuildIdentity(t *testing.T) {
	id, err := buildid.ID()
	if err != nil {
		t.Fatal(err)
	}
	f := newReleaseFixture(t, 2)
	out, cache := t.TempDir(), t.TempDir()
	f.releases(out, "--cache", cache)
	data, err := os.ReadFile(filepath.Join(out, site.ReleasesManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var m site.ReleasesManifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Releases) == 0 {
		t.Fatal("the manifest lists no release")
	}
	for _, r := range m.Releases {
		if r.Tool != id {
			t.Errorf("%s: manifest tool %q, want the build id %q", r.Tag, r.Tool, id)
		}
	}
	sum := sha256.Sum256([]byte(id))
	if _, err := os.Stat(filepath.Join(cache, "extract", hex.EncodeToString(sum[:8]))); err != nil {
		t.Errorf("the record cache is not kept under the build id: %v", err)
	}
}
