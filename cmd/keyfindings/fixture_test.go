package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/diff/golden")

const (
	fixtureDir  = "../../testdata/diff"
	fixtureDefs = fixtureDir + "/defs"
	fixtureWeb  = "https://example.com/fixture"
)

// fixture is a git repository whose commits are the trees under
// testdata/diff/history/<n>, tagged v0.<n>.0, with fixed signatures so
// commit ids (and so golden outputs) are stable.
type fixture struct {
	dir     string
	commits []string // by tag order
}

var fixtureTags = []string{"v0.1.0", "v0.2.0", "v0.3.0"}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	w, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{dir: dir}
	for i, tag := range fixtureTags {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() != ".git" {
				if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
					t.Fatal(err)
				}
			}
		}
		copyTree(t, filepath.Join(fixtureDir, "history", string(rune('1'+i))), dir)
		status, err := w.Status()
		if err != nil {
			t.Fatal(err)
		}
		for p, s := range status {
			if s.Worktree == git.Deleted {
				_, err = w.Remove(p)
			} else {
				_, err = w.Add(p)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		sig := &object.Signature{Name: "Fixture", Email: "fixture@example.com", When: time.Date(2026, 1, 1+i, 12, 0, 0, 0, time.UTC)}
		h, err := w.Commit("fixture "+tag, &git.CommitOptions{Author: sig, Committer: sig})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := repo.CreateTag(tag, h, nil); err != nil {
			t.Fatal(err)
		}
		f.commits = append(f.commits, h.String())
	}
	return f
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// kf runs the command line in-process and returns stdout, stderr and the
// exit status.
func kf(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String(), errb.String(), code
}

// src returns the flags naming the fixture repository and definitions.
func (f *fixture) src() []string {
	return []string{"--repo", f.dir, "--defs", fixtureDefs, "--web-url", fixtureWeb, "--quiet"}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join(fixtureDir, "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/keyfindings -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test ./cmd/keyfindings -update rewrites it):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// oneLineErr checks that stderr is exactly one line.
func oneLineErr(t *testing.T, stderr string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr is not one line: %q", stderr)
	}
}
