package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/gittest"
)

// fixtureRepo is a repository a test builds commit by commit with go-git:
// each commit states the whole tree it holds and its parents.
type fixtureRepo struct {
	t     *testing.T
	dir   string
	repo  *git.Repository
	wt    *git.Worktree
	when  time.Time
	files map[string]string
	// ids names commits by subject.
	ids map[string]plumbing.Hash
}

func newFixtureRepo(t *testing.T) *fixtureRepo {
	t.Helper()
	g := gittest.New(t)
	return &fixtureRepo{t: t, dir: g.Dir, repo: g.Repo, wt: g.WT, when: g.When, files: map[string]string{}, ids: map[string]plumbing.Hash{}}
}

// commit makes a commit whose tree is files, with the given parents
// (none: HEAD), one hour after the previous commit.
func (r *fixtureRepo) commit(subject string, files map[string]string, parents ...string) {
	r.t.Helper()
	for p := range r.files {
		if _, ok := files[p]; !ok {
			if _, err := r.wt.Remove(p); err != nil {
				r.t.Fatal(err)
			}
		}
	}
	for p, text := range files {
		full := filepath.Join(r.dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	r.files = files
	if err := r.wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		r.t.Fatal(err)
	}
	r.when = r.when.Add(time.Hour)
	sig := &object.Signature{Name: "Fixture", Email: "fixture@example.invalid", When: r.when}
	opts := &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true}
	for _, p := range parents {
		opts.Parents = append(opts.Parents, r.ids[p])
	}
	h, err := r.wt.Commit(subject, opts)
	if err != nil {
		r.t.Fatal(err)
	}
	r.ids[subject] = h
}

func (r *fixtureRepo) tag(name, subject string) {
	r.t.Helper()
	sig := &object.Signature{Name: "Fixture", Email: "fixture@example.invalid", When: r.when}
	if _, err := r.repo.CreateTag(name, r.ids[subject], &git.CreateTagOptions{Tagger: sig, Message: name}); err != nil {
		r.t.Fatal(err)
	}
}

func (r *fixtureRepo) commitObject(subject string) *object.Commit {
	r.t.Helper()
	c, err := r.repo.CommitObject(r.ids[subject])
	if err != nil {
		r.t.Fatal(err)
	}
	return c
}

// The definition the fixtures follow: an exported function provider, with
// the strings its includes() tests as a fact.
const routeDef = `id: route
page: prompts
section: Routing
title: Which prompt a model gets
claim: provider picks the prompt.
when: Always.
path: src/session/system.ts
query: |
  (export_statement
    declaration: (function_declaration
      name: (identifier) @_name (#eq? @_name "provider")
      body: (statement_block) @_body)) @finding
facts:
  - name: tests
    in: _body
    query: |
      (call_expression
        function: (member_expression property: (property_identifier) @_m (#eq? @_m "includes"))
        arguments: (arguments . (string) @s))
`

func routeDefinition(t *testing.T) *findings.Definition {
	t.Helper()
	d, err := findings.Parse([]byte(routeDef), "route.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// system returns a system.ts whose provider function routes the given
// ids, after pad blank lines.
func system(pad int, ids ...string) string {
	var b strings.Builder
	b.WriteString("import { PROMPT } from \"./prompt\"\n")
	b.WriteString(strings.Repeat("\n", pad))
	b.WriteString("\nexport function provider(model: Model) {\n")
	for _, id := range ids {
		fmt.Fprintf(&b, "  if (model.id.includes(%q)) return [PROMPT]\n", id)
	}
	b.WriteString("  return [PROMPT]\n}\n\nexport function other() {\n  return 1\n}\n")
	return b.String()
}

// arrow is the same routing in another shape (an arrow function), which
// the definition's query does not match: an era change.
const arrow = "export const provider = (model: Model) => [model.id.includes(\"gpt\") ? 1 : 2]\n"

// buildHistory makes the fixture history, oldest first:
//
//	add system (v0.1.0) - readme - pad - add rule (v0.2.0) - move - arrow
//	  ─┬─ side: function again ─────────────┐
//	   └─ main: readme ─── merge side (v0.9.0) ─┬─ main: add rule ── merge side2 (v0.10.0) ── main: last rule
//	                                             └─ side2: readme ──────┘
func buildHistory(t *testing.T) *fixtureRepo {
	r := newFixtureRepo(t)
	other := "export const unrelated = 1\n"
	r.commit("add system", map[string]string{"src/session/system.ts": system(0, "gpt"), "src/other.ts": other, "README.md": "a\n"})
	r.tag("v0.1.0", "add system")
	r.commit("readme", map[string]string{"src/session/system.ts": system(0, "gpt"), "src/other.ts": other, "README.md": "b\n"})
	r.commit("pad", map[string]string{"src/session/system.ts": system(3, "gpt"), "src/other.ts": other, "README.md": "b\n"})
	r.commit("add rule", map[string]string{"src/session/system.ts": system(3, "gpt", "claude"), "src/other.ts": other, "README.md": "b\n"})
	r.tag("v0.2.0", "add rule")
	r.commit("move", map[string]string{"lib/prompt/system.ts": system(3, "gpt", "claude"), "src/other.ts": other, "README.md": "b\n"})
	r.commit("arrow", map[string]string{"lib/prompt/system.ts": arrow, "src/other.ts": other, "README.md": "b\n"})
	r.commit("side: function again", map[string]string{"lib/prompt/system.ts": system(0, "gpt"), "src/other.ts": other, "README.md": "b\n"}, "arrow")
	r.commit("main: readme", map[string]string{"lib/prompt/system.ts": arrow, "src/other.ts": other, "README.md": "c\n"}, "arrow")
	merged := map[string]string{"lib/prompt/system.ts": system(0, "gpt"), "src/other.ts": other, "README.md": "c\n"}
	r.commit("merge side", merged, "main: readme", "side: function again")
	r.tag("v0.9.0", "merge side")
	r.commit("side2: readme", map[string]string{"lib/prompt/system.ts": system(0, "gpt"), "src/other.ts": other, "README.md": "d\n"}, "merge side")
	r.commit("main: add rule", map[string]string{"lib/prompt/system.ts": system(0, "gpt", "gemini"), "src/other.ts": other, "README.md": "c\n"}, "merge side")
	r.commit("merge side2", map[string]string{"lib/prompt/system.ts": system(0, "gpt", "gemini"), "src/other.ts": other, "README.md": "d\n"}, "main: add rule", "side2: readme")
	r.tag("v0.10.0", "merge side2")
	r.commit("main: last rule", map[string]string{"lib/prompt/system.ts": system(0, "gpt", "gemini", "kimi"), "src/other.ts": other, "README.md": "d\n"}, "merge side2")
	return r
}

func fixtureReleases(t *testing.T, r *fixtureRepo) []Release {
	t.Helper()
	rel, err := Releases(r.repo)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// summary lists entries as "subject kind release".
func summary(h *History) []string {
	var out []string
	for _, e := range h.Entries {
		rel := e.Release
		if rel == "" {
			rel = "-"
		}
		out = append(out, e.Subject+" | "+e.Kind+" | "+rel)
	}
	return out
}

func TestLogFixture(t *testing.T) {
	r := buildHistory(t)
	q := Query{ID: "route", Definition: routeDefinition(t), To: r.commitObject("main: last rule"), Releases: fixtureReleases(t, r), WebURL: "https://example.invalid/o", Repo: "https://example.invalid/o"}
	h, err := logOne(r.repo, q)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"main: last rule | changed | -",
		"main: add rule | changed | v0.10.0",
		"merge side | appeared | v0.9.0",
		"side: function again | appeared | v0.9.0",
		"arrow | disappeared | v0.9.0",
		"move | moved | v0.9.0",
		"add rule | changed | v0.2.0",
		"add system | appeared | v0.1.0",
	}
	if got := summary(h); !slices.Equal(got, want) {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Thirteen commits, of which only those whose inputs changed were
	// compared: not the readme commits nor the merge of side2.
	if h.Stats.Commits != 13 || h.Stats.Compared != 9 {
		t.Errorf("walked %d commits, compared %d; want 13 and 9", h.Stats.Commits, h.Stats.Compared)
	}
	for _, e := range h.Entries {
		if e.Subject == "move" {
			if e.New.Location.MovedFrom == "" || e.New.Location.MovedFrom != "src/session/system.ts" || e.New.Location.Path != "lib/prompt/system.ts" {
				t.Errorf("move: record %+v, want lib/prompt/system.ts moved from src/session/system.ts", e.New)
			}
		}
		if e.Subject == "add rule" {
			if len(e.Diff.Hunks) != 1 || e.Diff.Hunks[0].OldStart != 6 || len(e.Diff.Facts) != 1 || e.Diff.Facts[0].Name != "tests" {
				t.Errorf("add rule: hunks %+v facts %+v, want one hunk from line 6 and the tests fact", e.Diff.Hunks, e.Diff.Facts)
			}
		}
	}
}

func TestLogAllCommits(t *testing.T) {
	r := buildHistory(t)
	q := Query{ID: "route", Definition: routeDefinition(t), To: r.commitObject("main: last rule"), AllCommits: true}
	h, err := logOne(r.repo, q)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range h.Entries {
		got = append(got, e.Subject+" "+e.Kind)
	}
	want := []string{"main: last rule changed", "main: add rule changed", "merge side appeared", "side: function again appeared", "arrow disappeared", "move moved", "add rule changed", "pad touched", "add system appeared"}
	if !slices.Equal(got, want) {
		t.Errorf("log --all-commits:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLogRange(t *testing.T) {
	r := buildHistory(t)
	// v0.2.0..merge side2: the commits of the range only, each still
	// compared with its parent outside the range where it has one there.
	q := Query{ID: "route", Definition: routeDefinition(t), To: r.commitObject("merge side2"), From: r.commitObject("add rule")}
	h, err := logOne(r.repo, q)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range h.Entries {
		got = append(got, e.Subject)
	}
	want := []string{"main: add rule", "merge side", "side: function again", "arrow", "move"}
	if !slices.Equal(got, want) {
		t.Errorf("log add-rule..merge-side2: %q, want %q", got, want)
	}
	if h.Stats.Commits != 8 {
		t.Errorf("walked %d commits, want the 8 of the range", h.Stats.Commits)
	}
}

func TestLogJSON(t *testing.T) {
	r := buildHistory(t)
	q := Query{ID: "route", Definition: routeDefinition(t), To: r.commitObject("main: last rule"), Releases: fixtureReleases(t, r), WebURL: "https://example.invalid/o", Repo: "https://example.invalid/o"}
	h, err := logOne(r.repo, q)
	if err != nil {
		t.Fatal(err)
	}
	data, err := Histories{h}.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(h.Entries) {
		t.Fatalf("%d JSON entries, want %d", len(got), len(h.Entries))
	}
	first, arrowEntry := got[0], got[4]
	if c, _ := first["commit"].(string); len(c) != 40 || c != r.ids["main: last rule"].String() {
		t.Errorf("commit %v, want the full id of main: last rule", first["commit"])
	}
	if first["release"] != nil || first["kind"] != "changed" || first["path"] != "lib/prompt/system.ts" || first["sha256"] == nil {
		t.Errorf("first entry: %v", first)
	}
	if old, _ := first["old"].(map[string]any); old == nil || !strings.HasPrefix(fmt.Sprint(old["citation"]), "[lib/prompt/system.ts L") {
		t.Errorf("first entry's old citation: %v", first["old"])
	}
	if arrowEntry["kind"] != "disappeared" || arrowEntry["sha256"] != nil || arrowEntry["path"] != nil || arrowEntry["release"] != "v0.9.0" {
		t.Errorf("arrow entry: %v", arrowEntry)
	}
	if first["date"] != "2026-01-02T16:04:05Z" {
		t.Errorf("date %v", first["date"])
	}
	// Deterministic: a second run prints the same bytes.
	h2, err := logOne(r.repo, q)
	if err != nil {
		t.Fatal(err)
	}
	data2, _ := Histories{h2}.MarshalIndent()
	if !bytes.Equal(data, data2) {
		t.Error("two runs gave different JSON")
	}
}

// Source text (a subject, an author) never becomes Markdown markup.
func TestLogMarkdownEscapes(t *testing.T) {
	r := newFixtureRepo(t)
	r.commit("<img src=x onerror=alert(1)> *bold* [link](http://x) `code`", map[string]string{"src/session/system.ts": system(0, "gpt`")})
	q := Query{ID: "route", Definition: routeDefinition(t), To: r.commitObject("<img src=x onerror=alert(1)> *bold* [link](http://x) `code`")}
	h, err := logOne(r.repo, q)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := h.WriteMarkdown(&b, "https://example.invalid/o"); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, bad := range []string{"<img", "*bold*", "[link](", "`code`"} {
		if strings.Contains(strings.ReplaceAll(md, `\`+bad[:1], ""), bad) {
			t.Errorf("Markdown holds %q unescaped:\n%s", bad, md)
		}
	}
	if !strings.Contains(md, `\<img src=x onerror=alert(1)\>`) {
		t.Errorf("subject not shown escaped:\n%s", md)
	}
}

// When the definition's files are gone, the record comes from the tree
// search, whose inputs are every .ts file: a copy of the code appearing
// elsewhere makes the finding ambiguous though the file it was found in
// did not change.
func TestLogTreeSearchInputs(t *testing.T) {
	r := newFixtureRepo(t)
	r.commit("add", map[string]string{"src/session/system.ts": system(0, "gpt")})
	r.commit("move", map[string]string{"lib/a/system.ts": system(0, "gpt")})
	r.commit("readme", map[string]string{"lib/a/system.ts": system(0, "gpt"), "README.md": "x\n"})
	r.commit("copy", map[string]string{"lib/a/system.ts": system(0, "gpt"), "lib/b/system.ts": system(0, "gpt"), "README.md": "x\n"})
	r.commit("unrelated ts", map[string]string{"lib/a/system.ts": system(0, "gpt"), "lib/b/system.ts": system(0, "gpt"), "README.md": "x\n", "lib/c.ts": "export const c = 1\n"})
	h, err := logOne(r.repo, Query{ID: "route", Definition: routeDefinition(t), To: r.commitObject("unrelated ts")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range h.Entries {
		got = append(got, e.Subject+" "+e.Kind+" "+status(e.New))
	}
	want := []string{"copy disappeared ambiguous", "move moved located", "add appeared located"}
	if !slices.Equal(got, want) {
		t.Errorf("log: %q, want %q", got, want)
	}
	// lib/c.ts lacks the query's anchor ("provider"): the search would not
	// parse it, so its commit is not compared; nor is the readme's.
	if h.Stats.Compared != 3 {
		t.Errorf("compared %d commits, want 3 (add, move, copy)", h.Stats.Compared)
	}
}

// logOne is LogEach for one record: it lists, newest first (git log's default order: by committer date),
// the commits reachable from q.To and not from q.From at which the
// record q.ID differs from the record at the commit's first parent.
func logOne(repo *git.Repository, q Query) (*History, error) {
	hs, err := LogEach(repo, q, []Finding{{ID: q.ID, Definition: q.Definition}})
	if err != nil {
		return nil, err
	}
	return hs[0], nil
}

// textsDef cites each text file src/prompts.ts imports, whole: one record
// per file from one definition.
const textsDef = `id: texts
page: prompts
section: Routing
title: Prompt texts
claim: Each imported text is sent as it is.
when: Always.
path: src/prompts.ts
expect: all
key: file
file: file
query: |
  (import_statement source: (string) @file (#match? @file "^[\"'][.]/[^/]+[.]txt[\"']$"))
`

// TestLogEachSiblings follows two records of one expect: all definition
// in one walk: each lists only the commits that change its own file, as
// a log of it alone does, and --all-commits does not call a commit that
// changed the sibling's file a touch of this one.
func TestLogEachSiblings(t *testing.T) {
	def, err := findings.Parse([]byte(textsDef), "texts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := newFixtureRepo(t)
	prompts := "import A from \"./a.txt\"\nimport B from \"./b.txt\"\nexport const all = [A, B]\n"
	r.commit("add", map[string]string{"src/prompts.ts": prompts, "src/a.txt": "one\n", "src/b.txt": "one\n", "README.md": "a\n"})
	r.commit("change a", map[string]string{"src/prompts.ts": prompts, "src/a.txt": "two\n", "src/b.txt": "one\n", "README.md": "a\n"})
	r.commit("readme", map[string]string{"src/prompts.ts": prompts, "src/a.txt": "two\n", "src/b.txt": "one\n", "README.md": "b\n"})
	r.commit("change b", map[string]string{"src/prompts.ts": prompts, "src/a.txt": "two\n", "src/b.txt": "two\n", "README.md": "b\n"})
	want := map[string][]string{
		"texts-a-txt": {"change a | changed | -", "add | appeared | -"},
		"texts-b-txt": {"change b | changed | -", "add | appeared | -"},
	}
	for _, all := range []bool{false, true} {
		q := Query{To: r.commitObject("change b"), AllCommits: all}
		hs, err := LogEach(r.repo, q, []Finding{{ID: "texts-a-txt", Definition: def}, {ID: "texts-b-txt", Definition: def}})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hs {
			if got := summary(h); !slices.Equal(got, want[h.ID]) {
				t.Errorf("all-commits %v: log of %s:\n%s\nwant:\n%s", all, h.ID, strings.Join(got, "\n"), strings.Join(want[h.ID], "\n"))
			}
			alone := q
			alone.ID, alone.Definition = h.ID, def
			h1, err := logOne(r.repo, alone)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(summary(h1), summary(h)) {
				t.Errorf("all-commits %v: %s alone lists %q, with its sibling %q", all, h.ID, summary(h1), summary(h))
			}
		}
	}
}

// A second pass (a path found during the first) reuses what the first
// compared rather than locating those commits again. But the newest
// commit, which changed the moved file, was compared in the first pass
// as a change to the tree search's inputs (the record's new path was not
// known yet): in the second it is a touch of the record's file, which
// --all-commits lists, not the first pass's answer.
func TestLogSecondPassReuse(t *testing.T) {
	r := newFixtureRepo(t)
	r.commit("add", map[string]string{"src/session/system.ts": system(0, "gpt")})
	r.commit("move", map[string]string{"lib/a/system.ts": system(0, "gpt")})
	r.commit("pad", map[string]string{"lib/a/system.ts": system(2, "gpt")})
	for _, all := range []bool{false, true} {
		h, err := logOne(r.repo, Query{ID: "route", Definition: routeDefinition(t), To: r.commitObject("pad"), AllCommits: all})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"move | moved | -", "add | appeared | -"}
		if all {
			want = []string{"pad | touched | -", "move | moved | -", "add | appeared | -"}
		}
		if got := summary(h); !slices.Equal(got, want) {
			t.Errorf("all-commits %v: log:\n%s\nwant:\n%s", all, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// Both passes compare the three commits; each is located once.
		if h.Stats.Passes != 2 || h.Stats.Compared != 3 || h.Stats.Located != 3 {
			t.Errorf("all-commits %v: %d passes compared %d commits and located %d, want 2 passes comparing the 3 commits and locating each once", all, h.Stats.Passes, h.Stats.Compared, h.Stats.Located)
		}
	}
}

// Before its since: tag a definition is looked for at its own paths only,
// so a commit there that changes another file holding the query's anchors
// is not compared (its parent stands before the tag too); the tagged
// commit, which makes the same kind of change but whose parent stands
// before it, is, and the record the tree search finds there appears.
func TestLogOutsideRangeNotSearched(t *testing.T) {
	def, err := findings.Parse([]byte(routeDef+"since: v0.5.0\n"), "route.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := newFixtureRepo(t)
	// The query's words, in a comment: the search would parse the file
	// and find nothing.
	words := func(n int) string {
		return fmt.Sprintf("// export function provider includes %d\nexport const a = %d\n", n, n)
	}
	y := system(0, "gpt")
	r.commit("root", map[string]string{"lib/x.ts": words(1), "lib/y/system.ts": y})
	r.commit("edit x", map[string]string{"lib/x.ts": words(2), "lib/y/system.ts": y})
	r.commit("release", map[string]string{"lib/x.ts": words(3), "lib/y/system.ts": y})
	r.tag("v0.5.0", "release")
	r.commit("edit x again", map[string]string{"lib/x.ts": words(4), "lib/y/system.ts": y})
	h, err := logOne(r.repo, Query{ID: "route", Definition: def, To: r.commitObject("edit x again")})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(h), []string{"release | appeared | -"}; !slices.Equal(got, want) {
		t.Errorf("log: %q, want %q", got, want)
	}
	// root (no parent), release and edit x again; not edit x.
	if h.Stats.Compared != 3 {
		t.Errorf("compared %d commits, want 3", h.Stats.Compared)
	}
}

// Two more definitions over buildHistory's files: otherDef reads the file
// route reads (the function after provider), unrelatedDef a file that
// never moves.
const (
	otherDef = `id: other
page: prompts
section: Routing
title: The other function
claim: other returns one.
when: Always.
path: src/session/system.ts
query: |
  (export_statement
    declaration: (function_declaration
      name: (identifier) @_name (#eq? @_name "other"))) @finding
`
	unrelatedDef = `id: unrelated
page: prompts
section: Routing
title: The unrelated constant
claim: unrelated is one.
when: Always.
path: src/other.ts
query: |
  (lexical_declaration
    (variable_declarator name: (identifier) @_name (#eq? @_name "unrelated"))) @finding
`
)

// TestLogEachOneWalk follows three definitions in one LogEach, two of
// them reading the same file: each distinct blob of the history is
// parsed once for all of them (logs of each alone parse the shared
// file's versions once per definition), and each record's history is the
// one a log of it alone gives, though route needs a second pass (it moves)
// and the others do not.
func TestLogEachOneWalk(t *testing.T) {
	r := buildHistory(t)
	fs := threeFindings(t)
	q := Query{To: r.commitObject("main: last rule"), Releases: fixtureReleases(t, r), WebURL: "https://example.invalid/o", Repo: "https://example.invalid/o"}
	hs, err := LogEach(r.repo, q, fs)
	if err != nil {
		t.Fatal(err)
	}
	// The .ts blobs of the history: three versions of system.ts at its
	// first path, five at the second (one of them the first path's first
	// version) and one of other.ts. Records are kept by what the
	// definition's paths hold, and a file the tree search finds is
	// located, so parsed, again; the trees parsed are kept after their
	// calls end (within a budget this history stays under), so each blob
	// is parsed once, whichever commits are located together.
	blobs := map[string]bool{}
	for _, c := range r.ids {
		co, err := r.repo.CommitObject(c)
		if err != nil {
			t.Fatal(err)
		}
		files, err := co.Files()
		if err != nil {
			t.Fatal(err)
		}
		_ = files.ForEach(func(f *object.File) error {
			if strings.HasSuffix(f.Name, ".ts") {
				blobs[f.Hash.String()] = true
			}
			return nil
		})
	}
	together := hs[0].Stats.Parses
	if n := int64(len(blobs)); together != n {
		t.Errorf("one log of %d records parsed %d files, want each of the %d .ts blobs once", len(fs), together, n)
	}
	var alone int64
	for i, f := range fs {
		h1, err := LogEach(r.repo, q, []Finding{f})
		if err != nil {
			t.Fatal(err)
		}
		alone += h1[0].Stats.Parses
		want, err := Histories(h1).MarshalIndent()
		if err != nil {
			t.Fatal(err)
		}
		got, err := Histories{hs[i]}.MarshalIndent()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s logged with the others:\n%s\nalone:\n%s", f.ID, got, want)
		}
		if hs[i].Stats.Passes != h1[0].Stats.Passes || hs[i].Stats.Compared != h1[0].Stats.Compared {
			t.Errorf("%s: %d passes comparing %d commits with the others, %d comparing %d alone", f.ID, hs[i].Stats.Passes, hs[i].Stats.Compared, h1[0].Stats.Passes, h1[0].Stats.Compared)
		}
	}
	if hs[0].Stats.Passes != 2 || hs[2].Stats.Passes != 1 {
		t.Errorf("route walked %d passes, unrelated %d: want 2 (it moves) and 1", hs[0].Stats.Passes, hs[2].Stats.Passes)
	}
	if alone <= together+1 {
		t.Errorf("logs of each alone parsed %d files in all, one log of all %d: want more alone (each parses the shared file's versions)", alone, together)
	}
}

// threeFindings are the records of routeDef, otherDef and unrelatedDef.
func threeFindings(t *testing.T) []Finding {
	t.Helper()
	var fs []Finding
	for _, text := range []string{routeDef, otherDef, unrelatedDef} {
		d, err := findings.Parse([]byte(text), "def.yaml")
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, Finding{ID: d.ID, Definition: d})
	}
	return fs
}

// TestMemoBounded: past its bound the memo keeps the records of the
// commits the walk has yet to read (a parent not reached yet), drops the
// others, and holds no more than its bound after each node.
func TestMemoBounded(t *testing.T) {
	m := newMemo(1)
	hash := func(i int) plumbing.Hash { return plumbing.NewHash(fmt.Sprintf("%040x", i+1)) }
	put := func(i, last int) memoKey {
		k := memoKey{hash(i), "route"}
		m.entries[k] = &locatedAt{last: last}
		return k
	}
	pending := put(0, 10*m.bound) // a parent read at the end
	for i := 1; i < 4*m.bound; i++ {
		put(i, i+1) // read again by the next node only
		m.evict(i)
		if len(m.entries) > m.bound {
			t.Fatalf("%d entries held after node %d, want at most %d", len(m.entries), i, m.bound)
		}
		if _, ok := m.entries[pending]; !ok {
			t.Fatalf("after node %d, the records of a commit the walk has yet to read were dropped", i)
		}
		if _, ok := m.entries[memoKey{hash(i), "route"}]; !ok {
			t.Fatalf("after node %d, the records its successor reads were dropped", i)
		}
	}
}

// The route definition in two shapes: the newest (an exported function)
// searched for only from v0.5.0, an older one (a function named legacy)
// at every commit.
const routeShapesDef = `id: route
page: prompts
section: Routing
title: Which prompt a model gets
claim: provider picks the prompt.
when: Always.
path: src/session/system.ts
shapes:
  - name: function
    search_from: v0.5.0
    query: |
      (export_statement
        declaration: (function_declaration
          name: (identifier) @_name (#eq? @_name "provider"))) @finding
  - name: legacy
    query: |
      (function_declaration
        name: (identifier) @_name (#eq? @_name "legacy")) @finding
`

// TestLogSearchFrom: before a shape's search_from the tree search skips
// it, so code of that shape in another file is not found and a change to
// a file holding only its words is no input; at the tagged commit, though
// its tree equals its parent's, the search tries the shape and finds the
// code (appeared); an older shape is searched for all along.
func TestLogSearchFrom(t *testing.T) {
	def, err := findings.Parse([]byte(routeShapesDef), "route.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := newFixtureRepo(t)
	words := func(n int) string {
		return fmt.Sprintf("// export function provider %d\nexport const a = %d\n", n, n)
	}
	y := system(0, "gpt")
	r.commit("root", map[string]string{"lib/x.ts": words(1), "lib/y/system.ts": y})
	r.commit("edit x", map[string]string{"lib/x.ts": words(2), "lib/y/system.ts": y})
	r.commit("legacy", map[string]string{"lib/x.ts": words(2), "lib/y/system.ts": y, "lib/z.ts": "function legacy() {}\n"})
	r.commit("no legacy", map[string]string{"lib/x.ts": words(2), "lib/y/system.ts": y})
	r.commit("release", map[string]string{"lib/x.ts": words(2), "lib/y/system.ts": y})
	r.tag("v0.5.0", "release")
	r.commit("edit x again", map[string]string{"lib/x.ts": words(3), "lib/y/system.ts": y})
	h, err := logOne(r.repo, Query{ID: "route", Definition: def, To: r.commitObject("edit x again")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"release | appeared | -", "no legacy | disappeared | -", "legacy | appeared | -"}
	if got := summary(h); !slices.Equal(got, want) {
		t.Errorf("log: %q, want %q", got, want)
	}
	if e := h.Entries[0]; e.New == nil || e.New.Location == nil || e.New.Location.Path != "lib/y/system.ts" {
		t.Errorf("release: new citation %+v, want lib/y/system.ts", e.New)
	}
	// root, legacy, no legacy, release and edit x again; not edit x.
	if h.Stats.Compared != 5 {
		t.Errorf("compared %d commits, want 5", h.Stats.Compared)
	}
}

// TestLogSinceEdgeSameTree: a release commit whose tree equals its
// parent's is still compared when the definition's since tag names it:
// before it the definition was looked for at its paths only (absent), at
// it the tree search finds the moved code.
func TestLogSinceEdgeSameTree(t *testing.T) {
	def, err := findings.Parse([]byte(routeDef+"since: v0.5.0\n"), "route.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := newFixtureRepo(t)
	files := map[string]string{"lib/y/system.ts": system(0, "gpt")}
	r.commit("root", files)
	r.commit("release", files)
	r.tag("v0.5.0", "release")
	h, err := logOne(r.repo, Query{ID: "route", Definition: def, To: r.commitObject("release")})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(h), []string{"release | appeared | -"}; !slices.Equal(got, want) {
		t.Errorf("log: %q, want %q", got, want)
	}
}

// TestLogSchedulingIndependent: the walk locates commits on several
// goroutines, ahead of the one that compares them, so when it learns of
// a path (and so how many passes it walks) depends on scheduling. What
// it lists must not: a long history in which the record moves away and
// back, several times, logged with one worker and with many, and again,
// gives the same bytes, over the whole history and from a commit in it.
func TestLogSchedulingIndependent(t *testing.T) {
	r := newFixtureRepo(t)
	other := "export const unrelated = 1\n"
	paths := []string{"src/session/system.ts", "lib/a/system.ts", "lib/b/system.ts"}
	ids := []string{"gpt"}
	last := ""
	for i := range 60 {
		p := paths[(i/7)%len(paths)]
		if i%5 == 3 {
			ids = append(ids, fmt.Sprintf("m%d", i))
		}
		files := map[string]string{p: system(i%4, ids...), "src/other.ts": other, "README.md": fmt.Sprintf("%d\n", i%3)}
		if i%11 == 10 {
			files[p] = arrow
		}
		last = fmt.Sprintf("c%02d", i)
		r.commit(last, files)
	}
	fs := threeFindings(t)
	for _, c := range []struct {
		all  bool
		from string
	}{{false, ""}, {true, ""}, {false, "c25"}, {true, "c25"}} {
		all := c.all
		q := Query{To: r.commitObject(last), AllCommits: all, Repo: "https://example.invalid/o"}
		if c.from != "" {
			q.From = r.commitObject(c.from)
		}
		var want []byte
		for _, procs := range []int{1, 8, 2, 8, 1} {
			prev := runtime.GOMAXPROCS(procs)
			hs, err := LogEach(r.repo, q, fs)
			runtime.GOMAXPROCS(prev)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Histories(hs).MarshalIndent()
			if err != nil {
				t.Fatal(err)
			}
			if want == nil {
				want = got
				if n := len(hs[0].Entries); n < 8 {
					t.Fatalf("all-commits %v from %q: the route lists %d entries; the fixture should move and change it often", all, c.from, n)
				}
				continue
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("all-commits %v from %q: GOMAXPROCS %d lists\n%s\nGOMAXPROCS 1 lists\n%s", all, c.from, procs, got, want)
			}
		}
	}
}

// TestLogFromBoundaryPaths: a line of first parents that enters the range
// from outside (git log From..To) starts with a record no commit of the
// range compared; the file it cites there must still be followed. Here b
// changes t2.txt, which the record cites since F (left out by --from F),
// on a line (a, b) where nothing else changes it; s, on the other side
// of the merge, cites t1 instead of G's tG.
func TestLogFromBoundaryPaths(t *testing.T) {
	def, err := findings.Parse([]byte(`id: cite
page: prompts
section: Routing
title: Cited text
claim: The text is sent.
when: Always.
path: src/prompts.ts
file: file
query: |
  (import_statement source: (string) @file (#match? @file "^[\"'][.]/[^/]+[.]txt[\"']$"))
`), "cite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	files := func(cited, t2, readme string) map[string]string {
		return map[string]string{
			"src/prompts.ts": "import A from \"./" + cited + ".txt\"\nexport const all = [A]\n",
			"src/t1.txt":     "one\n", "src/tG.txt": "g\n", "src/t2.txt": t2, "README.md": readme,
		}
	}
	r := newFixtureRepo(t)
	r.commit("G", files("tG", "two\n", "x\n"))
	r.commit("F", files("t2", "two\n", "x\n"))
	r.commit("a", files("t2", "two\n", "a\n"))
	r.commit("s", files("t1", "two\n", "x\n"), "G")
	r.commit("b", files("t2", "TWO\n", "a\n"), "a")
	r.commit("M", files("t2", "TWO\n", "a\n"), "b", "s")
	want := []string{"b | changed | -", "s | changed | -"}
	for range 10 {
		hs, err := LogEach(r.repo, Query{From: r.commitObject("F"), To: r.commitObject("M")}, []Finding{{ID: "cite", Definition: def}})
		if err != nil {
			t.Fatal(err)
		}
		if got := summary(hs[0]); !slices.Equal(got, want) {
			t.Fatalf("log F..M:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
