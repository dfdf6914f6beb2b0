package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

const extractTree = "../../testdata/extract/tree"
const extractDefs = "../../testdata/extract/defs"

// runCmd runs the command line in-process.
func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestBuildPlainDirectory(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	code, stdout, stderr := runCmd("build", "--repo", extractTree, "--defs", extractDefs, "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "" || stderr != "" {
		t.Errorf("quiet build printed %q / %q", stdout, stderr)
	}
	doc, err := findings.ReadDocument(filepath.Join(out, "findings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Source.Commit != nil || doc.Source.Repo != "https://github.com/anomalyco/opencode" {
		t.Errorf("source = %+v", doc.Source)
	}
	lic, err := os.ReadFile(filepath.Join(out, "upstream-license.txt"))
	want, _ := os.ReadFile(filepath.Join(extractTree, "LICENSE"))
	if err != nil || !bytes.Equal(lic, want) {
		t.Errorf("upstream-license.txt is not the LICENSE bytes: %v", err)
	}
}

func TestBuildStrict(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	code, _, stderr := runCmd("build", "--repo", extractTree, "--defs", extractDefs, "--out", out, "--strict", "--quiet")
	if code != 1 {
		t.Fatalf("strict with missing findings: exit %d, want 1", code)
	}
	for _, id := range []string{"tool-overload is ambiguous", "nothing-here is missing", "gone-file is missing"} {
		if !strings.Contains(stderr, id) {
			t.Errorf("stderr %q does not name %q", stderr, id)
		}
	}
	// Only located definitions: strict passes.
	defs := t.TempDir()
	for _, f := range []string{"routing.yaml", "limits.yaml", "setup.yaml"} {
		data, _ := os.ReadFile(filepath.Join(extractDefs, f))
		os.WriteFile(filepath.Join(defs, f), data, 0o644)
	}
	code, _, stderr = runCmd("build", "--repo", extractTree, "--defs", defs, "--out", out, "--strict", "--quiet")
	if code != 0 {
		t.Fatalf("strict with all located: exit %d: %s", code, stderr)
	}
}

func TestErrorsAreOneLine(t *testing.T) {
	badDefs := t.TempDir()
	os.WriteFile(filepath.Join(badDefs, "broken.yaml"), []byte("id: x\npage: prompts\nsection: s\ntitle: t\nclaim: c\nwhen: w\npath: a.ts\nquery: (nope) @finding\n"), 0o644)
	out := filepath.Join(t.TempDir(), "site")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown command", []string{"frobnicate"}, 2, "unknown command"},
		{"unknown flag", []string{"build", "--bogus"}, 2, "flag provided but not defined"},
		{"extra argument", []string{"build", "extra"}, 2, "unexpected argument"},
		{"broken definition", []string{"build", "--repo", extractTree, "--defs", badDefs, "--out", out}, 1, "broken.yaml"},
		{"broken definition before any source", []string{"build", "--repo", "https://127.0.0.1:1/never-contacted.git", "--defs", badDefs, "--out", out}, 1, "broken.yaml"},
		{"not a repository", []string{"build", "--repo", filepath.Join(extractTree, "LICENSE"), "--defs", extractDefs, "--out", out}, 1, "not a git repository"},
		{"web URL that is a path", []string{"build", "--repo", extractTree, "--defs", extractDefs, "--web-url", "/srv/opencode", "--out", out}, 2, "not an http(s) URL"},
		{"web URL with a script scheme", []string{"build", "--repo", extractTree, "--defs", extractDefs, "--web-url", "javascript:alert(1)", "--out", out}, 2, "not an http(s) URL"},
		{"unreachable URL", []string{"build", "--repo", "https://127.0.0.1:1/opencode.git", "--cache", t.TempDir(), "--defs", extractDefs, "--out", out, "--quiet"}, 1, "--repo PATH"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q, want one line containing %q", stderr, tt.want)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed build wrote the output directory")
	}
}

func TestList(t *testing.T) {
	code, stdout, stderr := runCmd("list", "--defs", extractDefs)
	if code != 0 {
		t.Fatal(stderr)
	}
	if !strings.Contains(stdout, "routing\tprompts\tRouting fixture\tpackages/opencode/src/session/system.ts\n") {
		t.Errorf("list output %q", stdout)
	}
}
