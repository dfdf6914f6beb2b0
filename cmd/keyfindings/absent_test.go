package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

// absentDefs is a definitions directory holding never-there.yaml with
// until: v0.2.0: at v0.2.0 and later the finding is absent, before it
// missing.
func absentDefs(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtureDefs, "never-there.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "never-there.yaml"), append(data, "until: v0.2.0\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBuildStrictAbsent: build --strict passes with an absent finding and
// fails with a missing one; pages show absent as one quiet line.
func TestBuildStrictAbsent(t *testing.T) {
	f := newFixture(t)
	defs := absentDefs(t)
	out := filepath.Join(t.TempDir(), "site")
	_, stderr, code := kf("build", "--repo", f.dir, "--defs", defs, "--ref", "v0.3.0", "--out", out, "--strict", "--quiet")
	if code != 0 {
		t.Fatalf("strict with an absent finding: exit %d: %s", code, stderr)
	}
	doc, err := findings.ReadDocument(filepath.Join(out, "findings.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := doc.Find("never-there")
	if r.Status != findings.StatusAbsent || r.Problem == nil || *r.Problem != "removed in v0.2.0" {
		t.Fatalf("record %s %v, want absent, removed in v0.2.0", r.Status, r.Problem)
	}
	for _, page := range []string{"findings.md", "index.html", "network.html"} {
		data, err := os.ReadFile(filepath.Join(out, page))
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if !strings.Contains(text, "Absent at this release:") || !strings.Contains(text, "removed in v0.2.0") {
			t.Errorf("%s does not say the finding is absent at this release", page)
		}
		// One quiet line: no claim, no When line, no caution box.
		for _, noise := range []string{"would call a remote endpoint", "When:", "CAUTION", "Missing"} {
			if strings.Contains(text, noise) {
				t.Errorf("%s shows %q for an absent finding", page, noise)
			}
		}
	}
	_, stderr, code = kf("build", "--repo", f.dir, "--defs", defs, "--ref", "v0.1.0", "--out", out, "--strict", "--quiet")
	if code != 1 || !strings.Contains(stderr, "never-there is missing") {
		t.Fatalf("strict with a missing finding (before until): exit %d, stderr %q; want 1 naming it", code, stderr)
	}
}
