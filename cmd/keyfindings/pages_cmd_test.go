package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildUnknownTemplate: a misspelt file in --templates stops the build
// with one line naming it and the template files, and writes nothing.
func TestBuildUnknownTemplate(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "templates")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "indx.md.tmpl"), []byte("# My index\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "site")
	rc, _, stderr := runCmdT(t, buildArgs(t, out, "--templates", dir)...)
	if rc != 1 || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Fatalf("exit %d, stderr %q; want 1 and one line", rc, stderr)
	}
	for _, want := range []string{"--templates", "indx.md.tmpl", "index.md.tmpl", "page.md.tmpl"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q does not name %s", stderr, want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the failed build wrote %s (%v)", out, err)
	}
}

// TestReleasesSummaryOne: the summary of a run over one release says
// "1 release", not "1 releases".
func TestReleasesSummaryOne(t *testing.T) {
	f := newReleaseFixture(t, 1)
	tag := releaseFixtureTags[1][0]
	out := filepath.Join(t.TempDir(), "rel")
	_, stderr, code := kf("releases", "--repo", f.dir, "--defs", releasesDefs, "--web-url", fixtureWeb, "--from", tag, "--to", tag, "--out", out)
	if code != 0 {
		t.Fatalf("releases: exit %d: %s", code, stderr)
	}
	if want := "keyfindings: 1 release, " + tag + " ("; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q lacks %q", stderr, want)
	}
}
