package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// catalogTree holds synthetic sources for the whole built-in catalog.
const catalogTree = "../../testdata/catalog"

// copyDefs copies the built-in definition files into a temporary directory.
func copyDefs(t *testing.T) (string, map[string]string) {
	t.Helper()
	src := filepath.Join("..", "..", "findings", "defs")
	names, err := filepath.Glob(filepath.Join(src, "*.yaml"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no definitions in %s: %v", src, err)
	}
	dir := t.TempDir()
	orig := map[string]string{}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		orig[filepath.Base(n)] = string(data)
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(n)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, orig
}

func TestReviewFlagsAndAccepts(t *testing.T) {
	defs, orig := copyDefs(t)

	// The fixtures are not the pinned release: their facts differ from the
	// reviewed ones.
	code, stdout, stderr := runCmd("review", "--repo", catalogTree, "--defs", defs, "--quiet")
	if code != 1 {
		t.Fatalf("review: exit %d, want 1 (stderr %q)", code, stderr)
	}
	for _, want := range []string{
		"tool-output-bounds\tfacts changed since the claim was written\n",
		"\n    fact max_lines: 2000 → 1500\n",
		// A list fact item by item, as diff shows it, not as one line.
		"\n    fact rules:\n      - {",
		// (The rules' keys in order: cond, the structured condition, first.)
		"\n      + {\"cond\":{\"args\":[{\"op\":\"string\",\"value\":\"alpha\"}],",
		"system-prompt-files-prompt-wide-txt\tfacts not reviewed yet\n",
		"system-prompt-files-prompt-gpt-txt\treviewed, but no such record at this commit\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("review output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--accept") {
		t.Errorf("stderr %q, want one line pointing at --accept", stderr)
	}

	code, stdout, stderr = runCmd("review", "--repo", catalogTree, "--defs", defs, "--quiet", "--accept")
	if code != 0 {
		t.Fatalf("review --accept: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "accepted\t"+filepath.Join(defs, "29-tool-output-bounds.yaml")+"\n") {
		t.Errorf("accept output %q", stdout)
	}
	for name, before := range orig {
		data, err := os.ReadFile(filepath.Join(defs, name))
		if err != nil {
			t.Fatal(err)
		}
		i, j := strings.Index(before, "\nreviewed:\n"), strings.Index(string(data), "\nreviewed:\n")
		if i < 0 || j < 0 || before[:i] != string(data)[:j] {
			t.Errorf("%s: accept changed more than the reviewed section", name)
		}
	}
	code, stdout, stderr = runCmd("review", "--repo", catalogTree, "--defs", defs, "--quiet")
	if code != 0 || stdout != "" {
		t.Errorf("after accept: exit %d, output %q %q", code, stdout, stderr)
	}
	code, stdout, _ = runCmd("review", "--repo", catalogTree, "--defs", defs, "--quiet", "--accept")
	if code != 0 || !strings.Contains(stdout, "nothing to accept") {
		t.Errorf("second accept: exit %d, output %q", code, stdout)
	}
}

func TestReviewAcceptNeedsDefinitionsDir(t *testing.T) {
	tree, err := filepath.Abs(catalogTree)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	code, stdout, stderr := runCmd("review", "--repo", tree, "--accept", "--quiet")
	if code != 1 || stdout != "" {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "findings/defs") || !strings.Contains(stderr, "--defs") {
		t.Errorf("stderr %q, want one line naming findings/defs and --defs", stderr)
	}
}

func TestListFullCatalog(t *testing.T) {
	code, stdout, stderr := runCmd("list")
	if code != 0 {
		t.Fatal(stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) < 25 {
		t.Errorf("list printed %d definitions", len(lines))
	}
	for _, want := range []string{
		"system-prompt-routing\tprompts\tWhich base system prompt a model gets\tpackages/opencode/src/session/system.ts",
		"tool-output-bounds\ttools\tHow the core tool registry cuts long tool output (/v2 runner)\tpackages/core/src/tool-output-store.ts",
	} {
		if !strings.Contains(stdout, want+"\n") {
			t.Errorf("list lacks %q", want)
		}
	}
	for _, l := range lines {
		if strings.Count(l, "\t") != 3 {
			t.Errorf("line %q: want id, page, title, path separated by tabs", l)
		}
	}
}
