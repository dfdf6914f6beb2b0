package main

import (
	"bytes"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/gittest"
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

// TestReviewRecordsCode: accepting records the cited bytes with the
// facts; a later commit whose bytes differ with the same facts carries a
// visible note (not a review flag); and accepting an older commit's facts
// over ones checked at a newer commit needs --force.
func TestReviewRecordsCode(t *testing.T) {
	const store = "packages/core/src/tool-output-store.ts"
	defs, g, orig := catalogRepo(t, store)
	g.Commit("first")
	g.Tag("v1.0.0")
	g.Write(store, bytes.Replace(orig, []byte("MAX_LINES = 1_500"), []byte("MAX_LINES = 1_700"), 1))
	g.Commit("more lines")
	g.Tag("v1.1.0")
	// Other bytes in the span, the same facts.
	g.Write(store, bytes.Replace(bytes.Replace(orig, []byte("MAX_LINES = 1_500"), []byte("MAX_LINES = 1_700"), 1), []byte("const cut = "), []byte("const cut  = "), 1))
	g.Commit("reformat")
	g.Tag("v1.2.0")

	review := reviewIn(g.Dir, defs)
	if code, _, stderr := review("v1.1.0", "--accept"); code != 0 {
		t.Fatalf("accept at v1.1.0: exit %d: %s", code, stderr)
	}
	file := filepath.Join(defs, "29-tool-output-bounds.yaml")
	accepted, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(accepted), "    _code:\n      - at: v1.1.0 (") || !strings.Contains(string(accepted), "max_lines: 1700\n") {
		t.Fatalf("the accepted entry lacks the facts or the code read at v1.1.0:\n%s", accepted)
	}
	if code, stdout, stderr := review("v1.1.0"); code != 0 || stdout != "" {
		t.Errorf("review at the accepted commit: exit %d, %q %q", code, stdout, stderr)
	}

	// v1.2.0: same facts, other bytes: a note on the record and its page,
	// listed by review, which still exits 0.
	code, stdout, stderr := review("v1.2.0")
	if code != 0 || !strings.Contains(stdout, "tool-output-bounds\tcode differs from every version the claim was checked against; facts unchanged (checked at v1.1.0 (") {
		t.Errorf("review at v1.2.0: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	out := filepath.Join(t.TempDir(), "site")
	if code, _, stderr := runCmd("build", "--repo", g.Dir, "--ref", "v1.2.0", "--defs", defs, "--out", out, "--quiet"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	mustValidate(t, compileSchema(t), filepath.Join(out, "findings.json"))
	doc, err := findings.ReadDocument(filepath.Join(out, "findings.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := doc.Find("tool-output-bounds")
	if r == nil || r.Review != nil || r.CodeDiffers == nil || !strings.HasPrefix(r.CodeDiffers.At, "v1.1.0 (") || r.CodeDiffers.SHA256 == r.Location.SHA256 {
		t.Fatalf("record at v1.2.0: %+v, want code_differs naming v1.1.0 and no review", r)
	}
	page, err := os.ReadFile(filepath.Join(out, "tools.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "Checked against other code:") {
		t.Error("tools.html does not show the note")
	}
	// The version it names is the one accepted last, which need not be
	// the newest commit (an older one with the same facts can follow).
	if !strings.Contains(string(page), "the last accepted: v1.1.0 (") {
		t.Error("tools.html: the note does not name the version accepted last")
	}
	// cite says so too, in one line, and still cites.
	if code, stdout, stderr := runCmd("cite", "tool-output-bounds", "--repo", g.Dir, "--ref", "v1.2.0", "--defs", defs, "--quiet"); code != 0 || !strings.Contains(stdout, "tool-output-bounds") ||
		!strings.HasPrefix(stderr, "keyfindings cite: note: tool-output-bounds's claim was checked against other code (last at v1.1.0 (") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("cite at v1.2.0: exit %d, %q, stderr %q", code, stdout, stderr)
	}
	if code, _, stderr := review("v1.2.0", "--accept"); code != 0 {
		t.Fatalf("accept at v1.2.0: %s", stderr)
	}
	for _, ref := range []string{"v1.1.0", "v1.2.0"} {
		if code, stdout, _ := review(ref); code != 0 || stdout != "" {
			t.Errorf("after accepting v1.2.0, review at %s: exit %d, %q (both versions were checked)", ref, code, stdout)
		}
	}

	// v1.0.0 has other facts; its commit comes before those checked.
	before, _ := os.ReadFile(file)
	code, stdout, stderr = review("v1.0.0", "--accept")
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "newer v1.") || !strings.Contains(stderr, "--force") {
		t.Errorf("accept at the older v1.0.0: exit %d, stderr %q, want one line asking for --force", code, stderr)
	}
	if strings.Contains(stdout, "accepted\t") {
		t.Errorf("refused accept wrote: %q", stdout)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(after, before) {
		t.Error("a refused accept changed the definition")
	}
	if code, _, stderr := review("v1.0.0", "--force"); code != 2 || !strings.Contains(stderr, "--force only applies with --accept") {
		t.Errorf("--force without --accept: exit %d, %q, want a usage error", code, stderr)
	}
	if code, _, stderr := review("v1.0.0", "--accept", "--force"); code != 0 {
		t.Fatalf("accept --force at v1.0.0: %s", stderr)
	}
	if after, _ := os.ReadFile(file); !strings.Contains(string(after), "max_lines: 1500\n") || strings.Contains(string(after), "- at: v1.1.0") {
		t.Errorf("forced accept: want the v1.0.0 facts and its code alone:\n%s", after)
	}
}

// releaseCommit tags, as opencode does since v1.14, a release commit made
// on top of g's HEAD and never merged back: later commits on the line do
// not descend from it.
// catalogRepo copies the built-in definitions into a temporary directory
// and starts a repository holding the catalog's fixture tree (nothing
// committed yet); orig is the fixture's file at path.
func catalogRepo(t *testing.T, path string) (defs string, g *gittest.Repo, orig []byte) {
	t.Helper()
	defs, _ = copyDefs(t)
	g = gittest.New(t)
	g.CopyTree(catalogTree)
	orig, err := os.ReadFile(filepath.Join(catalogTree, path))
	if err != nil {
		t.Fatal(err)
	}
	return defs, g, orig
}

// reviewIn runs keyfindings review on repository dir with the definitions
// in defs, at a ref, with more flags.
func reviewIn(dir, defs string) func(ref string, extra ...string) (int, string, string) {
	return func(ref string, extra ...string) (int, string, string) {
		return runCmd(append([]string{"review", "--repo", dir, "--ref", ref, "--defs", defs, "--quiet"}, extra...)...)
	}
}

func releaseCommit(t *testing.T, g *gittest.Repo, tag string) string {
	t.Helper()
	head, err := g.Repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	c, err := g.Repo.CommitObject(head.Hash())
	if err != nil {
		t.Fatal(err)
	}
	id := g.RawCommit("release: "+tag, c.TreeHash, c.Hash)
	sig := &object.Signature{Name: "Fixture", Email: "fixture@example.invalid", When: g.When}
	if _, err := g.Repo.CreateTag(tag, plumbing.NewHash(id), &git.CreateTagOptions{Tagger: sig, Message: tag}); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestReviewForceOffLineReleases: release commits off the line are placed
// as release tags are (see locate/lineage.go): v1.1.0's release commit
// does not descend from v1.0.0's, yet v1.0.0 is older, so accepting its
// facts over those checked at v1.1.0 needs --force.
func TestReviewForceOffLineReleases(t *testing.T) {
	const store = "packages/core/src/tool-output-store.ts"
	defs, g, orig := catalogRepo(t, store)
	g.Commit("first")
	releaseCommit(t, g, "v1.0.0")
	g.Write(store, bytes.Replace(orig, []byte("MAX_LINES = 1_500"), []byte("MAX_LINES = 1_700"), 1))
	g.Commit("more lines")
	releaseCommit(t, g, "v1.1.0")

	review := reviewIn(g.Dir, defs)
	if code, _, stderr := review("v1.1.0", "--accept"); code != 0 {
		t.Fatalf("accept at v1.1.0: exit %d: %s", code, stderr)
	}
	file := filepath.Join(defs, "29-tool-output-bounds.yaml")
	before, _ := os.ReadFile(file)
	code, _, stderr := review("v1.0.0", "--accept")
	if code != 1 || !strings.Contains(stderr, "reviewed at the newer v1.1.0") || !strings.Contains(stderr, "--force") {
		t.Errorf("accept at the older off-line release v1.0.0: exit %d, stderr %q, want a refusal asking for --force", code, stderr)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(after, before) {
		t.Error("a refused accept changed the definition")
	}
	if code, _, stderr := review("v1.0.0", "--accept", "--force"); code != 0 {
		t.Fatalf("accept --force at v1.0.0: %s", stderr)
	}
	// And back: v1.1.0 is newer than v1.0.0, though not its descendant.
	if code, _, stderr := review("v1.1.0", "--accept"); code != 0 {
		t.Errorf("accept at the newer v1.1.0 over v1.0.0's facts: exit %d: %s", code, stderr)
	}
}

// TestReviewForceDrops: accepting at an older commit that lacks a record
// would drop the entry checked at a newer one (and flag it there as not
// reviewed): that needs --force as replacing its facts does.
func TestReviewForceDrops(t *testing.T) {
	const index = "packages/opencode/src/command/index.ts"
	defs, g, orig := catalogRepo(t, index)
	const imp = "import PROMPT_REVIEW from \"./template/review.txt\"\n"
	if !bytes.Contains(orig, []byte(imp)) {
		t.Fatalf("%s lacks %q", index, imp)
	}
	g.Write(index, bytes.Replace(orig, []byte(imp), nil, 1))
	g.Commit("no review command yet")
	g.Tag("v1.0.0")
	g.Write(index, orig)
	g.Commit("the review command")
	g.Tag("v1.1.0")

	review := reviewIn(g.Dir, defs)
	if code, _, stderr := review("v1.1.0", "--accept"); code != 0 {
		t.Fatalf("accept at v1.1.0: exit %d: %s", code, stderr)
	}
	file := filepath.Join(defs, "41-command-template-files.yaml")
	before, _ := os.ReadFile(file)
	if !strings.Contains(string(before), "command-template-files-prompt-review:") {
		t.Fatalf("no entry for the review template after accepting at v1.1.0:\n%s", before)
	}
	code, _, stderr := review("v1.0.0", "--accept")
	if code != 1 || !strings.Contains(stderr, "would drop the facts of command-template-files-prompt-review") || !strings.Contains(stderr, "--force") {
		t.Errorf("accept at v1.0.0, which lacks the record: exit %d, stderr %q, want a refusal to drop its entry", code, stderr)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(after, before) {
		t.Error("a refused accept changed the definition")
	}
	if code, _, stderr := review("v1.0.0", "--accept", "--force"); code != 0 {
		t.Fatalf("accept --force at v1.0.0: %s", stderr)
	}
	if after, _ := os.ReadFile(file); strings.Contains(string(after), "command-template-files-prompt-review:") {
		t.Error("accept --force kept the entry of a record v1.0.0 lacks")
	}
}

// TestReviewForceShallow: in a copy that lacks the history between two
// commits (a depth-1 fetch of each tag), ancestry cannot tell whether the
// commit a claim was checked at is newer. Release tags are then ordered
// by version (the catalog's v1.18.3 is newer than v1.1.0; v1.1.0 than
// v1.0.0, and not the other way); another ref is refused unless --force,
// not taken for one at a newer commit.
func TestReviewForceShallow(t *testing.T) {
	const store = "packages/core/src/tool-output-store.ts"
	defs, g, orig := catalogRepo(t, store)
	tree := func(id string) plumbing.Hash {
		c, err := g.Repo.CommitObject(plumbing.NewHash(id))
		if err != nil {
			t.Fatal(err)
		}
		return c.TreeHash
	}
	older := tree(g.Commit("first"))
	g.Write(store, bytes.Replace(orig, []byte("MAX_LINES = 1_500"), []byte("MAX_LINES = 1_700"), 1))
	newer := tree(g.Commit("more lines"))
	// Two commits whose parents this copy lacks, as a depth-1 fetch of
	// each tag leaves them; the older also on a branch.
	sig := &object.Signature{Name: "Fixture", Email: "fixture@example.invalid", When: g.When}
	for _, c := range []struct {
		tag  string
		tree plumbing.Hash
		gone string
	}{{"v1.0.0", older, strings.Repeat("1", 40)}, {"v1.1.0", newer, strings.Repeat("2", 40)}} {
		id := g.RawCommit("release: "+c.tag, c.tree, plumbing.NewHash(c.gone))
		if _, err := g.Repo.CreateTag(c.tag, plumbing.NewHash(id), &git.CreateTagOptions{Tagger: sig, Message: c.tag}); err != nil {
			t.Fatal(err)
		}
		if c.tag == "v1.0.0" {
			g.Branch("old", id)
		}
	}
	review := reviewIn(g.Dir, defs)
	// The catalog's entries were checked at v1.18.3, which this copy
	// lacks: its version is the later one.
	if code, _, stderr := review("v1.1.0", "--accept"); code != 1 || !strings.Contains(stderr, "reviewed at the newer v1.18.3 (127bdb3)") {
		t.Errorf("accept at v1.1.0 over entries checked at v1.18.3: exit %d, %q", code, stderr)
	}
	if code, _, stderr := review("v1.1.0", "--accept", "--force"); code != 0 {
		t.Fatalf("accept --force at v1.1.0: exit %d: %s", code, stderr)
	}
	file := filepath.Join(defs, "29-tool-output-bounds.yaml")
	before, _ := os.ReadFile(file)
	code, _, stderr := review("v1.0.0", "--accept")
	if code != 1 || !strings.Contains(stderr, "reviewed at the newer v1.1.0") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("accept at v1.0.0 in a shallow copy: exit %d, stderr %q, want one line naming v1.1.0", code, stderr)
	}
	code, _, stderr = review("old", "--accept")
	if code != 1 || !strings.Contains(stderr, "lacks the history") || !strings.Contains(stderr, "--force") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("accept at a branch in a shallow copy: exit %d, stderr %q, want one line saying ancestry cannot tell", code, stderr)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(after, before) {
		t.Error("a refused accept changed the definition")
	}
	if code, _, stderr := review("v1.0.0", "--accept", "--force"); code != 0 {
		t.Fatalf("accept --force at v1.0.0: exit %d: %s", code, stderr)
	}
	if code, _, stderr := review("v1.1.0", "--accept"); code != 0 {
		t.Errorf("accept at v1.1.0 over v1.0.0's facts in a shallow copy: exit %d: %s", code, stderr)
	}
}

// TestReviewForceRealHistory: in opencode's history v1.17.0's release
// commit is not an ancestor of v1.18.3's, yet accepting its facts over
// those the catalog checked at v1.18.3 needs --force; v1.18.2 (also off
// the line) has v1.18.3's facts and code, so there is nothing to accept.
func TestReviewForceRealHistory(t *testing.T) {
	repo := realRepo(t)
	defs, orig := copyDefs(t)
	cache := t.TempDir()
	code, _, stderr := runCmd("review", "--repo", repo, "--ref", "v1.17.0", "--defs", defs, "--cache", cache, "--quiet", "--accept")
	if code != 1 || !strings.Contains(stderr, "reviewed at the newer v1.18.3 (127bdb3)") {
		t.Errorf("accept at v1.17.0: exit %d, %q, want a refusal naming v1.18.3", code, stderr)
	}
	for name, data := range orig {
		if got, _ := os.ReadFile(filepath.Join(defs, name)); string(got) != data {
			t.Errorf("a refused accept changed %s", name)
		}
	}
	if code, stdout, stderr := runCmd("review", "--repo", repo, "--ref", "v1.18.2", "--defs", defs, "--cache", cache, "--quiet", "--accept"); code != 0 || !strings.Contains(stdout, "nothing to accept") {
		t.Errorf("accept at v1.18.2: exit %d, %q %q", code, stdout, stderr)
	}
}

func TestReleaseOrder(t *testing.T) {
	for _, tc := range []struct {
		a, b  string
		order int
		ok    bool
	}{
		{"v1.18.3 (127bdb3)", "v1.17.0 (43ecd34)", 1, true},
		{"v1.9.0 (1234567)", "v1.10.0 (abcdef0)", -1, true},
		{"v1.2.3 (1234567)", "v1.2.3", 0, true},
		{"main (1234567)", "v1.2.3 (abcdef0)", 0, false},
		{"v1.2.3 (1234567)", "1234567", 0, false},
		{"plain directory", "v1.2.3", 0, false},
		{"v1.2 (1234567)", "v1.2.3", 0, false},
	} {
		if order, ok := releaseOrder(tc.a, tc.b); order != tc.order || ok != tc.ok {
			t.Errorf("releaseOrder(%q, %q) = %d, %v; want %d, %v", tc.a, tc.b, order, ok, tc.order, tc.ok)
		}
	}
}
