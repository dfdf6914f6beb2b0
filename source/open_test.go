package source

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/gittest"
)

// fixtureRepo commits the extract fixture tree twice: v0.1.0 and a later
// commit on main that changes the routing.
func fixtureRepo(t *testing.T) (*gittest.Repo, string, string) {
	r := gittest.New(t)
	r.CopyTree(fixtureTree)
	first := r.Commit("fixture")
	r.Tag("v0.1.0")
	r.Write("packages/opencode/src/session/system.ts", []byte("// moved down\n\nexport function provider() {\n  return [B]\n}\n"))
	second := r.Commit("change routing")
	r.Branch("main", second)
	return r, first, second
}

// fixtureTree is the tree fixtureRepo commits.
const (
	fixtureTree = "../testdata/extract/tree"
	routingPath = "packages/opencode/src/session/system.ts"
)

// providerLine reads the fixture's system.ts and the whole tree from snap,
// and returns the line "export function provider" starts on (0 if none).
func providerLine(t *testing.T, snap Snapshot) int {
	t.Helper()
	f, err := snap.ReadFile(routingPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := snap.Walk(func(e Entry) error {
		_, err := ReadEntry(snap, e)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(f.Data), "\n") {
		if strings.HasPrefix(line, "export function provider") {
			return i + 1
		}
	}
	return 0
}

func openAt(t *testing.T, opts Options, ref string) (Source, *Resolved, error) {
	t.Helper()
	o, err := Open(context.Background(), opts)
	if err != nil {
		return nil, nil, err
	}
	at, err := o.At(context.Background(), ref)
	if err != nil {
		o.Close()
		return nil, nil, err
	}
	t.Cleanup(func() { o.Close() })
	return o, at, err
}

func listFiles(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			b.WriteString(p + " " + info.ModTime().String() + "\n")
		}
		return nil
	})
	return b.String()
}

func TestSourceErrors(t *testing.T) {
	r, _, _ := fixtureRepo(t)
	file := filepath.Join(r.Dir, "LICENSE")
	pin := findings.Pin{Repo: "https://github.com/anomalyco/opencode"}
	tests := []struct {
		name string
		opts Options
		ref  string
		want string
	}{
		{"unknown ref", Options{Repo: r.Dir, Pin: pin}, "v9.9.9", "unknown revision"},
		{"option-like ref", Options{Repo: r.Dir, Pin: pin}, "--all", "not a valid ref"},
		{"missing path", Options{Repo: filepath.Join(r.Dir, "nope"), Pin: pin}, "", "no such file or directory"},
		{"a file", Options{Repo: file, Pin: pin}, "", "is a file"},
		{"ref on a plain directory", Options{Repo: fixtureTree, Pin: pin}, "v1", "plain directory"},
		{"unsupported scheme", Options{Repo: "ftp://example.invalid/opencode.git", Pin: pin}, "", "unsupported URL scheme"},
		{"too short a commit id", Options{Repo: r.Dir, Pin: pin}, "abc", "at least 4 hex digits"},
		{"a file at a ref", Options{Repo: r.Dir, Pin: pin}, "v0.1.0:LICENSE", "names a file or a tree"},
		{"a tree", Options{Repo: r.Dir, Pin: pin}, "v0.1.0^{tree}", "names a file or a tree"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := openAt(t, tt.opts, tt.ref)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want one line containing %q", err, tt.want)
			}
		})
	}
}

func TestGitHubWebURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/a/b.git": "https://github.com/a/b",
		"git@github.com:a/b.git":     "https://github.com/a/b",
		"ssh://git@github.com/a/b":   "https://github.com/a/b",
		"https://github.com/a/b/":    "https://github.com/a/b",
	} {
		got, ok := githubWebURL(in)
		if !ok || got != want {
			t.Errorf("githubWebURL(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
	if _, ok := githubWebURL("https://gitlab.com/a/b"); ok {
		t.Error("gitlab URL taken for GitHub")
	}
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fetchFileURLs makes file:// URLs go through the fetch path and the
// cache for the rest of the test, as a remote URL would: the cache tests
// use them instead of a server.
func fetchFileURLs(t *testing.T) {
	fileURLsInPlace = false
	t.Cleanup(func() { fileURLsInPlace = true })
}
