package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture returns the absolute path of a file under testdata/site.
func siteFixture(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "testdata", "site", rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func runCmdT(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	rc := run(args, &stdout, &stderr)
	return rc, stdout.String(), stderr.String()
}

// tree reads every file under dir.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func buildArgs(t *testing.T, out string, more ...string) []string {
	return append([]string{"build", "--quiet", "--repo", siteFixture(t, "src"), "--defs", siteFixture(t, "defs"), "--out", out}, more...)
}

// TestBuildSite builds the synthetic plain directory twice (byte-identical
// sites with every page), then with broken templates, which must fail and
// leave the site as it was.
func TestBuildSite(t *testing.T) {
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	if rc, _, stderr := runCmdT(t, buildArgs(t, a)...); rc != 0 {
		t.Fatalf("build: exit %d: %s", rc, stderr)
	}
	if rc, _, stderr := runCmdT(t, buildArgs(t, b)...); rc != 0 {
		t.Fatalf("build: exit %d: %s", rc, stderr)
	}
	first := tree(t, a)
	for _, name := range []string{"index.html", "prompts.html", "tools.html", "configuration.html", "network.html", "findings.md", "findings.json", "style.css", "upstream-license.txt"} {
		if _, ok := first[name]; !ok {
			t.Errorf("build wrote no %s", name)
		}
	}
	if !sameTree(first, tree(t, b)) {
		t.Error("two builds of the same source differ")
	}
	if !strings.Contains(first["tools.html"], "no match in packages/agent/src/tool/registry.ts") && !strings.Contains(first["tools.html"], "file not found") {
		t.Error("tools.html does not show the missing finding's reason")
	}

	bad := filepath.Join(tmp, "templates")
	if err := os.Mkdir(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "page.md.tmpl"), []byte("{{.Page.NoSuchField}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, _, stderr := runCmdT(t, buildArgs(t, a, "--templates", bad)...)
	if rc != 1 || !strings.Contains(stderr, "page.md.tmpl") {
		t.Errorf("build with a broken template: exit %d, stderr %q", rc, stderr)
	}
	if !sameTree(first, tree(t, a)) {
		t.Error("a failed build changed the previous site")
	}
	rc, _, stderr = runCmdT(t, buildArgs(t, a, "--templates", filepath.Join(tmp, "none"))...)
	if rc != 1 || !strings.Contains(stderr, "--templates") {
		t.Errorf("build with a missing --templates dir: exit %d, stderr %q", rc, stderr)
	}
}

// TestDefaultOut: without --out, in a directory whose ./site is a Go
// package, build writes ./_site and says so.
func TestDefaultOut(t *testing.T) {
	repo, defs := siteFixture(t, "src"), siteFixture(t, "defs")
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("site", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("site", "render.go"), []byte("package site\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, _, stderr := runCmdT(t, "build", "--quiet", "--repo", repo, "--defs", defs)
	if rc != 0 {
		t.Fatalf("build: exit %d: %s", rc, stderr)
	}
	if !strings.Contains(stderr, "_site") {
		t.Errorf("build did not say it used ./_site: %q", stderr)
	}
	if _, err := os.Stat(filepath.Join("_site", "index.html")); err != nil {
		t.Error(err)
	}
	if entries, _ := os.ReadDir("site"); len(entries) != 1 {
		t.Error("build touched ./site")
	}
	if err := os.RemoveAll("site"); err != nil {
		t.Fatal(err)
	}
	if rc, _, stderr := runCmdT(t, "build", "--quiet", "--repo", repo, "--defs", defs); rc != 0 || strings.Contains(stderr, "_site") {
		t.Errorf("build without a Go ./site: exit %d, stderr %q", rc, stderr)
	}
	if _, err := os.Stat(filepath.Join("site", "index.html")); err != nil {
		t.Error(err)
	}
}

func TestServe(t *testing.T) {
	empty := t.TempDir()
	err := serve(context.Background(), empty, "127.0.0.1:0", func(string) {})
	if err == nil || !strings.Contains(err.Error(), "no index.html") {
		t.Errorf("serve of an empty dir: %v", err)
	}
	if rc, _, stderr := runCmdT(t, "serve", "--out", empty); rc != 1 || !strings.Contains(stderr, "no index.html") {
		t.Errorf("serve command on an empty dir: exit %d, %q", rc, stderr)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<h1>Key findings</h1>"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- serve(ctx, dir, "127.0.0.1:0", func(u string) { urls <- u }) }()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatal(err)
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "<h1>Key findings</h1>" {
		t.Errorf("GET %s: %d %q", url, resp.StatusCode, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve after cancel: %v", err)
	}
}

// TestStrictFailureKeepsSite: a --strict build that fails (a finding is
// missing) leaves the previous site byte-identical, as CI needs, and
// writes nothing where there was none.
func TestStrictFailureKeepsSite(t *testing.T) {
	f := newReleaseFixture(t, 5)
	out := filepath.Join(t.TempDir(), "pub")
	if _, stderr, code := kf(append(append([]string{"build"}, f.src()...), "--ref", "v1.1.0", "--out", out)...); code != 0 {
		t.Fatalf("build v1.1.0: exit %d: %s", code, stderr)
	}
	before := readTree(t, out)
	_, stderr, code := kf(append(append([]string{"build"}, f.src()...), "--ref", "v0.10.0", "--out", out, "--strict")...)
	if code != 1 {
		t.Fatalf("strict build of v0.10.0: exit %d, stderr %q; want exit 1", code, stderr)
	}
	if !equalTrees(t, readTree(t, out), before) {
		t.Error("a failed --strict build changed the published site")
	}
	if !strings.Contains(stderr, "legacy-hook is missing") || !strings.Contains(stderr, "nothing written") {
		t.Errorf("stderr %q does not name the missing finding and say nothing was written", stderr)
	}

	fresh := filepath.Join(t.TempDir(), "none")
	if _, _, code := kf(append(append([]string{"build"}, f.src()...), "--ref", "v0.10.0", "--out", fresh, "--strict")...); code != 1 {
		t.Fatalf("strict build into a new directory: exit %d, want 1", code)
	}
	if _, err := os.Lstat(fresh); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failed --strict build created --out: %v", err)
	}
}
