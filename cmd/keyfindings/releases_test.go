package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/gittest"
	"github.com/keyfindings/keyfindings/site"
	"github.com/keyfindings/keyfindings/source"
)

const (
	releasesDir  = "../../testdata/releases"
	releasesDefs = releasesDir + "/defs"
)

// releaseFixture is a git repository whose commits are the trees under
// testdata/releases/history/<n>, with fixed signatures and times so the
// commit ids, and so the golden pages, are stable.
type releaseFixture struct {
	t    *testing.T
	dir  string
	repo *git.Repository
	wt   *git.Worktree
	n    int
}

// The fixture's tags by history tree. v0.10.0 must sort after v0.9.0;
// v1.0.0-beta.1 is a pre-release, nightly, vscode-v0.0.1 and rel/v2.0.0
// are not releases of the fixture (the last cannot even name a
// directory); v1.1.0 is added by commit(5) when a test asks.
var releaseFixtureTags = map[int][]string{
	1: {"v0.9.0"},
	2: {"v0.10.0"},
	3: {"v1.0.0-beta.1", "nightly"},
	4: {"v1.0.0", "vscode-v0.0.1", "rel/v2.0.0"},
	5: {"v1.1.0"},
}

// newReleaseFixture commits history trees 1 to upto.
func newReleaseFixture(t *testing.T, upto int) *releaseFixture {
	t.Helper()
	g := gittest.New(t)
	f := &releaseFixture{t: t, dir: g.Dir, repo: g.Repo, wt: g.WT}
	for f.n < upto {
		f.commit()
	}
	return f
}

// commit commits the next history tree and tags it; the first tag of
// each commit is annotated, the others lightweight.
func (f *releaseFixture) commit() {
	t := f.t
	t.Helper()
	f.n++
	entries, err := os.ReadDir(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != ".git" {
			if err := os.RemoveAll(filepath.Join(f.dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	copyTree(t, filepath.Join(releasesDir, "history", fmt.Sprint(f.n)), f.dir)
	if err := f.wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "Fixture", Email: "fixture@example.com", When: time.Date(2026, 3, f.n, 12, 0, 0, 0, time.UTC)}
	h, err := f.wt.Commit(fmt.Sprintf("fixture release %d", f.n), &git.CommitOptions{Author: sig, Committer: sig})
	if err != nil {
		t.Fatal(err)
	}
	for i, tag := range releaseFixtureTags[f.n] {
		var opts *git.CreateTagOptions
		if i == 0 {
			opts = &git.CreateTagOptions{Tagger: sig, Message: tag}
		}
		if _, err := f.repo.CreateTag(tag, h, opts); err != nil {
			t.Fatal(err)
		}
	}
}

func (f *releaseFixture) src() []string {
	return []string{"--repo", f.dir, "--defs", releasesDefs, "--web-url", fixtureWeb, "--quiet"}
}

// releases runs keyfindings releases on the fixture and fails the test
// unless it succeeds.
func (f *releaseFixture) releases(out string, args ...string) {
	f.t.Helper()
	_, stderr, code := kf(append(append([]string{"releases"}, f.src()...), append(args, "--out", out)...)...)
	if code != 0 {
		f.t.Fatalf("releases %v: exit %d: %s", args, code, stderr)
	}
}

// readTree returns every file under dir by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// subdirs lists the release directories of dir (the timelines' folder
// is not one).
func subdirs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "timeline" {
			names = append(names, e.Name())
		}
	}
	return names
}

func TestReleasesSelection(t *testing.T) {
	f := newReleaseFixture(t, 5)
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"every release, not the pre-release or other tags", nil, []string{"v0.10.0", "v0.9.0", "v1.0.0", "v1.1.0"}},
		{"from and to are inclusive and semver-ordered", []string{"--from", "v0.10.0", "--to", "v1.0.0"}, []string{"v0.10.0", "v1.0.0"}},
		{"a match admits pre-releases", []string{"--match", "v1.*"}, []string{"v1.0.0", "v1.0.0-beta.1", "v1.1.0"}},
		{"a match admits other tag families", []string{"--match", "vscode-*"}, []string{"vscode-v0.0.1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "rel")
			f.releases(out, tc.args...)
			if got := subdirs(t, out); !slices.Equal(got, tc.want) {
				t.Errorf("release directories %v, want %v", got, tc.want)
			}
		})
	}

	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"from is not a tag", []string{"--from", "v0.8.0"}, 1, "--from v0.8.0: no such tag"},
		{"to has no version", []string{"--to", "nightly"}, 1, "carries no semantic version"},
		{"from after to", []string{"--from", "v1.0.0", "--to", "v0.9.0"}, 1, "later version than --to"},
		{"nothing matches", []string{"--match", "release-*"}, 1, `no tags matching "release-*"`},
		{"bad glob", []string{"--match", "v["}, 1, "not a valid glob"},
		{"a tag that cannot name a directory", []string{"--match", "rel/*"}, 1, `tag "rel/v2.0.0" cannot name a directory`},
		{"ref is not a releases flag", []string{"--ref", "v1.0.0"}, 2, "-ref"},
		{"positional argument", []string{"v1.0.0"}, 2, "unexpected argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "rel")
			_, stderr, code := kf(append(append([]string{"releases"}, f.src()...), append(tc.args, "--out", out)...)...)
			if code != tc.code || !strings.Contains(stderr, tc.msg) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tc.code, tc.msg)
			}
			oneLineErr(t, stderr)
			if _, err := os.Stat(out); err == nil {
				t.Error("a failed run wrote --out")
			}
		})
	}

	_, stderr, code := kf(append([]string{"releases"}, f.src()...)...)
	if code != 2 || !strings.Contains(stderr, "--out DIR is required") {
		t.Errorf("without --out: exit %d, %q", code, stderr)
	}
	_, stderr, code = kf("releases", "--repo", "../../testdata/extract/tree", "--defs", releasesDefs, "--out", filepath.Join(t.TempDir(), "rel"))
	if code != 1 || !strings.Contains(stderr, "plain directory") {
		t.Errorf("plain directory: exit %d, %q", code, stderr)
	}
}

// fixtureDocs reads the per-release findings.json of a releases directory.
func fixtureDocs(t *testing.T, out string, tags []string) []*findings.Document {
	t.Helper()
	var docs []*findings.Document
	for _, tag := range tags {
		doc, err := findings.ReadDocument(filepath.Join(out, tag, "findings.json"))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc)
	}
	return docs
}

// releaseLinks are the links of a release's pages to the releases index,
// its minor version and its neighbours, one a line.
var releaseLinks = regexp.MustCompile(`(?m)^<a href="\.\./[^"]*">[^<]*</a>\n`)

// excerptBlock is an excerpt on a page, and sameAsLink what a releases
// directory shows instead of an excerpt an earlier release shows.
var (
	excerptBlock = regexp.MustCompile(`(?s)<pre class="chroma.*?</pre>\n?(<details class="excerpt">.*?</details>\n?|<p class="more">.*?</p>\n?)?`)
	sameAsLink   = regexp.MustCompile(`<p><em>The same lines, byte for byte, as at .*?</em></p>\n?`)
)

func TestReleasesSite(t *testing.T) {
	f := newReleaseFixture(t, 5)
	out := filepath.Join(t.TempDir(), "rel")
	f.releases(out)
	tags := []string{"v0.9.0", "v0.10.0", "v1.0.0", "v1.1.0"}
	files := readTree(t, out)

	// Each release directory is what build writes for that tag, but for
	// the links of its pages to the releases index and its neighbours,
	// and the excerpts that the release before showed already, which are
	// links (site's TestReleasesSameAs checks them); plus changes.html
	// for all but the oldest.
	for i, tag := range tags {
		built := filepath.Join(t.TempDir(), "build")
		if _, stderr, code := kf(append(append([]string{"build"}, f.src()...), "--ref", tag, "--out", built)...); code != 0 {
			t.Fatalf("build %s: %s", tag, stderr)
		}
		want := readTree(t, built)
		delete(want, ".keyfindings") // the marker sits at the top of a releases directory
		if i > 0 {
			if files[tag+"/changes.html"] == nil {
				t.Errorf("%s has no changes.html", tag)
			}
			want["changes.html"] = files[tag+"/changes.html"]
		}
		got := map[string][]byte{}
		for name, data := range files {
			if rest, ok := strings.CutPrefix(name, tag+"/"); ok {
				if rest != "changes.html" && strings.HasSuffix(rest, ".html") {
					links := releaseLinks.FindAll(data, -1)
					if len(links) < 3 || len(links) > 4 {
						t.Errorf("%s/%s has %d links to the releases index and its neighbours, want 3 or 4", tag, rest, len(links))
					}
					data = releaseLinks.ReplaceAll(data, nil)
					if i == 0 && sameAsLink.Match(data) {
						t.Errorf("%s/%s, the oldest release, links an excerpt instead of showing it", tag, rest)
					}
					data = sameAsLink.ReplaceAll(excerptBlock.ReplaceAll(data, []byte("EXCERPT\n")), []byte("EXCERPT\n"))
					want[rest] = excerptBlock.ReplaceAll(want[rest], []byte("EXCERPT\n"))
				}
				got[rest] = data
			}
		}
		if !equalTrees(t, got, want) {
			t.Errorf("%s/ is not what build writes for %s", tag, tag)
		}
	}
	if _, ok := files["v0.9.0/changes.html"]; ok {
		t.Error("the oldest release has a changes page")
	}

	// The index lists the minor versions newest first, then the newest
	// one's releases.
	index := string(files["index.html"])
	last := -1
	for _, m := range []string{"v1.1", "v1.0", "v0.10", "v0.9"} {
		at := strings.Index(index, `href="`+m+`.html"`)
		if at < last {
			t.Errorf("minor version %s is listed out of order or not at all", m)
		}
		last = at
		if files[m+".html"] == nil {
			t.Errorf("minor version %s has no page", m)
		}
	}
	if !strings.Contains(index, "v1.1.0</a> (package 1.1.0-dev)") {
		t.Error("a package version that is not the tag's is not shown")
	}

	// The counts, and the timelines' marks, agree with the diff of
	// consecutive releases.
	docs := fixtureDocs(t, out, tags)
	seen := map[string]bool{}
	for i, tag := range tags[1:] {
		d := diff.Compare(docs[i], docs[i+1])
		page := strings.TrimSuffix(tag, ".0") + ".html"
		for status, n := range d.Counts() {
			if status == diff.Unchanged {
				continue
			}
			link := fmt.Sprintf(`<a href="%s/changes.html#%s">%d</a>`, tag, status, n)
			if !strings.Contains(string(files[page]), link) {
				t.Errorf("%s lacks %s", page, link)
			}
			if !strings.Contains(string(files[tag+"/changes.html"]), `id="`+status+`"`) {
				t.Errorf("%s/changes.html has no #%s", tag, status)
			}
		}
		for _, fd := range d.Findings {
			seen[fd.Status] = true
			tl := string(files["timeline/"+fd.ID+".html"])
			mark := fmt.Sprintf(`<a href="../%s/changes.html#%s">%s</a> at %s`, tag, fd.ID, fd.Status, tag)
			if got := strings.Contains(tl, mark); got != fd.Differs() {
				t.Errorf("timeline of %s: mark %q shown %v, want %v", fd.ID, mark, got, fd.Differs())
			}
		}
	}
	for _, s := range []string{"unchanged", "moved", "changed", "added", "removed", "missing"} {
		if !seen[s] {
			t.Errorf("the fixture never shows %s", s)
		}
	}
	// tool-ids-read is gone in v0.10.0 and v1.0.0 (removed, then no
	// record) and back in v1.1.0: three lines on its timeline.
	tl := string(files["timeline/tool-ids-read.html"])
	if n := strings.Count(tl, "<li>"); n != 3 || !strings.Contains(tl, "no record") {
		t.Errorf("tool-ids-read's timeline has %d lines (want 3, one of them without a record)", n)
	}

	// Source text never becomes markup: the fixture's </svg><script> is
	// in an excerpt and in a diff, escaped.
	for name, data := range files {
		if strings.HasSuffix(name, ".html") && bytes.Contains(data, []byte("<script")) {
			t.Errorf("%s contains <script", name)
		}
	}
	if !bytes.Contains(files["v1.0.0/changes.html"], []byte("&lt;/svg&gt;&lt;script&gt;")) {
		t.Error("v1.0.0/changes.html does not show the escaped source text")
	}

	releasesGolden(t, "index.html", files["index.html"])
	releasesGolden(t, "v1.0.0-changes.html", files["v1.0.0/changes.html"])
	releasesGolden(t, "v0.10.html", files["v0.10.html"])
	releasesGolden(t, "timeline-tool-ids-read.html", files["timeline/tool-ids-read.html"])
}

// releasesGolden compares a page with testdata/releases/golden/<name>;
// -update rewrites it.
func releasesGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join(releasesDir, "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/keyfindings -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./cmd/keyfindings -update rewrites it; read the diff before committing)", name)
	}
}

func TestReleasesIncremental(t *testing.T) {
	f := newReleaseFixture(t, 4)
	var extracted []string
	recordExtracted(t, &extracted)

	out := filepath.Join(t.TempDir(), "rel")
	f.releases(out)
	if want := []string{"v0.9.0", "v0.10.0", "v1.0.0"}; !slices.Equal(extracted, want) {
		t.Fatalf("first run extracted %v, want %v", extracted, want)
	}
	first := readTree(t, out)

	// The stamps that let the next run trust each findings.json without
	// reading it are kept in the cache directory, not in the output.
	stamps, err := filepath.Glob(filepath.Join(os.Getenv("KEYFINDINGS_CACHE"), "releases", "*.json"))
	if err != nil || len(stamps) == 0 {
		t.Errorf("no stamps in the cache directory after a run (%v)", err)
	}
	for name := range first {
		if strings.Contains(name, "stamp") {
			t.Errorf("the output holds %s", name)
		}
	}

	// The same run again extracts nothing and writes the same bytes.
	extracted = nil
	f.releases(out)
	if len(extracted) != 0 {
		t.Errorf("an unchanged rerun extracted %v", extracted)
	}
	if again := readTree(t, out); !equalTrees(t, again, first) {
		t.Error("an unchanged rerun wrote other bytes")
	}

	// One more release: only it is extracted, and the result is what a
	// build from scratch gives.
	f.commit()
	extracted = nil
	f.releases(out)
	if want := []string{"v1.1.0"}; !slices.Equal(extracted, want) {
		t.Errorf("the run after a new tag extracted %v, want %v", extracted, want)
	}
	scratch := filepath.Join(t.TempDir(), "scratch")
	f.releases(scratch)
	if !equalTrees(t, readTree(t, out), readTree(t, scratch)) {
		t.Error("the incremental build differs from a build from scratch")
	}

	// A tampered findings.json is not trusted: that release is extracted
	// again and the output restored. So is one whose time says it is
	// older than the manifest but whose size is not the one written (the
	// quick check trusts size and time together, as rsync's does).
	tampered := filepath.Join(out, "v0.10.0", "findings.json")
	for _, c := range []struct {
		name, with string
		older      bool
	}{
		{"tampering", `"missing"`, false},
		{"tampering with an older time", `"missing" `, true},
	} {
		data, _ := os.ReadFile(tampered)
		if err := os.WriteFile(tampered, bytes.Replace(data, []byte(`"located"`), []byte(c.with), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		if past := time.Now().Add(-time.Hour); c.older {
			if err := os.Chtimes(tampered, past, past); err != nil {
				t.Fatal(err)
			}
		}
		extracted = nil
		f.releases(out)
		if want := []string{"v0.10.0"}; !slices.Equal(extracted, want) {
			t.Errorf("after %s, extracted %v, want %v", c.name, extracted, want)
		}
		if !equalTrees(t, readTree(t, out), readTree(t, scratch)) {
			t.Errorf("after %s, the release was not restored", c.name)
		}
	}

	// A tag moved to another commit is extracted again.
	head, err := f.repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.repo.DeleteTag("v0.9.0"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.repo.CreateTag("v0.9.0", head.Hash(), nil); err != nil {
		t.Fatal(err)
	}
	extracted = nil
	f.releases(out)
	if want := []string{"v0.9.0"}; !slices.Equal(extracted, want) {
		t.Errorf("after moving v0.9.0, extracted %v, want %v", extracted, want)
	}

	// Other definitions: everything is extracted again.
	defs := t.TempDir()
	copyTree(t, releasesDefs, defs)
	if err := os.Remove(filepath.Join(defs, "legacy-hook.yaml")); err != nil {
		t.Fatal(err)
	}
	extracted = nil
	if _, stderr, code := kf("releases", "--repo", f.dir, "--defs", defs, "--web-url", fixtureWeb, "--quiet", "--out", out); code != 0 {
		t.Fatal(stderr)
	}
	if len(extracted) != 4 {
		t.Errorf("with other definitions, extracted %v, want all four", extracted)
	}
}

// equalTrees reports whether two directory listings hold the same files
// with the same bytes, naming the first difference.
func equalTrees(t *testing.T, a, b map[string][]byte) bool {
	t.Helper()
	ok := true
	for name, data := range a {
		if other, found := b[name]; !found {
			t.Logf("only in the first: %s", name)
			ok = false
		} else if !bytes.Equal(data, other) {
			t.Logf("differs: %s", name)
			ok = false
		}
	}
	for name := range b {
		if _, found := a[name]; !found {
			t.Logf("only in the second: %s", name)
			ok = false
		}
	}
	return ok
}

func TestReleasesFailureKeepsDir(t *testing.T) {
	f := newReleaseFixture(t, 4)
	out := filepath.Join(t.TempDir(), "rel")
	f.releases(out)
	before := readTree(t, out)

	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "releases.md.tmpl"), []byte("{{.NoSuchField}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := kf(append(append([]string{"releases"}, f.src()...), "--templates", bad, "--out", out)...)
	if code != 1 || !strings.Contains(stderr, "releases.md.tmpl") {
		t.Errorf("broken template: exit %d, %q", code, stderr)
	}
	if !equalTrees(t, readTree(t, out), before) {
		t.Error("a failed run changed --out")
	}

	// A directory keyfindings did not write is not replaced without --force.
	foreign := t.TempDir()
	if err := os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = kf(append(append([]string{"releases"}, f.src()...), "--out", foreign)...)
	if code != 1 || !strings.Contains(stderr, "--force") {
		t.Errorf("foreign --out: exit %d, %q", code, stderr)
	}
}

// TestReleasesKeepsOthers: a run over a narrower range leaves the other
// releases of the directory as they were; --prune removes them, says so,
// and leaves what a run of that range alone writes.
func TestReleasesKeepsOthers(t *testing.T) {
	f := newReleaseFixture(t, 5)
	out := filepath.Join(t.TempDir(), "rel")
	f.releases(out)
	all := readTree(t, out)

	args := append(append([]string{"releases"}, f.src()...), "--from", "v1.0.0", "--to", "v1.0.0", "--out", out)
	if _, stderr, code := kf(args...); code != 0 {
		t.Fatalf("narrower run: exit %d: %s", code, stderr)
	}
	if !equalTrees(t, readTree(t, out), all) {
		t.Error("a run over one release changed the directory of four")
	}
	_, stderr, _ := kf(slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--quiet" })...)
	if !strings.Contains(stderr, "kept 3 releases outside the range: v0.9.0 v0.10.0 v1.1.0 (--prune removes them)") {
		t.Errorf("the run does not say which releases it kept: %q", stderr)
	}

	_, stderr, code := kf(append(args, "--prune")...)
	if code != 0 {
		t.Fatalf("--prune: exit %d: %s", code, stderr)
	}
	if want := "keyfindings: removed 3 releases outside the range (--prune): v0.9.0 v0.10.0 v1.1.0\n"; stderr != want {
		t.Errorf("--prune says %q, want %q even with --quiet", stderr, want)
	}
	alone := filepath.Join(t.TempDir(), "alone")
	f.releases(alone, "--from", "v1.0.0", "--to", "v1.0.0")
	if !equalTrees(t, readTree(t, out), readTree(t, alone)) {
		t.Error("after --prune the directory is not what a run of the range alone writes")
	}
}

// TestOutputKinds: build does not replace a releases directory, nor
// releases a site written by build, without --force.
func TestOutputKinds(t *testing.T) {
	f := newReleaseFixture(t, 4)
	rel := filepath.Join(t.TempDir(), "rel")
	f.releases(rel, "--to", "v0.10.0")
	pub := filepath.Join(t.TempDir(), "pub")
	build := append(append([]string{"build"}, f.src()...), "--ref", "v1.0.0")
	if _, stderr, code := kf(append(build, "--out", pub)...); code != 0 {
		t.Fatal(stderr)
	}
	relTree, pubTree := readTree(t, rel), readTree(t, pub)

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"build into a releases directory", append(build, "--out", rel), "is a releases directory (it holds .keyfindings-releases.json), and this command writes a single site"},
		{"releases into a site", append(append([]string{"releases"}, f.src()...), "--out", pub), "is a single site (it holds findings.json), and this command writes a releases directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := kf(tc.args...)
			if code != 1 || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "--force") {
				t.Errorf("exit %d, stderr %q; want exit 1, %q and --force", code, stderr, tc.want)
			}
			oneLineErr(t, stderr)
		})
	}
	if !equalTrees(t, readTree(t, rel), relTree) || !equalTrees(t, readTree(t, pub), pubTree) {
		t.Fatal("a refused run changed its --out")
	}

	// With --force each replaces the other's directory whole.
	if _, stderr, code := kf(append(build, "--out", rel, "--force")...); code != 0 {
		t.Fatalf("build --force over a releases directory: %s", stderr)
	}
	if !equalTrees(t, readTree(t, rel), pubTree) {
		t.Error("build --force did not replace the releases directory with its site")
	}
	if _, stderr, code := kf(append(append([]string{"releases"}, f.src()...), "--to", "v0.10.0", "--out", pub, "--force")...); code != 0 {
		t.Fatalf("releases --force over a site: %s", stderr)
	}
	if !equalTrees(t, readTree(t, pub), relTree) {
		t.Error("releases --force did not replace the site with the releases")
	}
}

// TestReleasesInterrupted: a release that fails midway stops the run,
// and the directory keeps the releases finished before it and those that
// were there, with an index and manifest that list exactly those; the
// next run reuses them.
func TestReleasesInterrupted(t *testing.T) {
	f := newReleaseFixture(t, 5)
	out := filepath.Join(t.TempDir(), "rel")
	f.releases(out, "--to", "v0.9.0")
	old := readTree(t, out)

	// v1.0.0's package.json is a blob of its own; without it, its
	// extraction fails.
	data, err := os.ReadFile(filepath.Join(releasesDir, "history", "4", "packages", "opencode", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	id := plumbing.ComputeHash(plumbing.BlobObject, data).String()
	object := filepath.Join(f.dir, ".git", "objects", id[:2], id[2:])
	blob, err := os.ReadFile(object)
	if err != nil {
		t.Fatalf("the fixture's package.json of v1.0.0 is not a loose object: %v", err)
	}
	if err := os.Remove(object); err != nil {
		t.Fatal(err)
	}

	_, stderr, code := kf(append(append([]string{"releases"}, f.src()...), "--from", "v0.10.0", "--out", out)...)
	if code != 1 || !strings.Contains(stderr, "release v1.0.0:") {
		t.Fatalf("exit %d, stderr %q; want exit 1 naming release v1.0.0", code, stderr)
	}
	if got, want := subdirs(t, out), []string{"v0.10.0", "v0.9.0"}; !slices.Equal(got, want) {
		t.Errorf("after the failure the directory holds %v, want %v (and nothing half-written)", got, want)
	}
	now := readTree(t, out)
	for name, data := range old {
		if strings.HasPrefix(name, "v0.9.0/") && !bytes.Equal(now[name], data) {
			t.Errorf("%s changed", name)
		}
	}
	manifest := string(now[".keyfindings-releases.json"])
	if !strings.Contains(manifest, `"tag":"v0.9.0"`) || !strings.Contains(manifest, `"tag":"v0.10.0"`) || strings.Contains(manifest, `"tag":"v1.`) {
		t.Errorf("the manifest does not list exactly v0.9.0 and v0.10.0:\n%s", manifest)
	}
	index := string(now["index.html"])
	if !strings.Contains(index, `href="v0.9.html"`) || !strings.Contains(index, `href="v0.10.0/changes.html#`) || strings.Contains(index, `href="v1.`) {
		t.Error("the index does not list exactly v0.9.0 and v0.10.0")
	}
	if !strings.Contains(string(now["v0.9.html"]), `href="v0.9.0/index.html"`) || now["v1.0.html"] != nil {
		t.Error("the minor versions' pages do not list exactly v0.9.0 and v0.10.0")
	}
	if _, ok := now["v0.10.0/changes.html"]; !ok {
		t.Error("v0.10.0 has no changes page against v0.9.0")
	}

	// With the object back, a rerun extracts only what is not there and
	// ends as a run from scratch.
	if err := os.WriteFile(object, blob, 0o444); err != nil {
		t.Fatal(err)
	}
	var extracted []string
	recordExtracted(t, &extracted)
	f.releases(out, "--from", "v0.10.0")
	if want := []string{"v1.0.0", "v1.1.0"}; !slices.Equal(extracted, want) {
		t.Errorf("the rerun extracted %v, want %v", extracted, want)
	}
	scratch := filepath.Join(t.TempDir(), "scratch")
	f.releases(scratch)
	if !equalTrees(t, readTree(t, out), readTree(t, scratch)) {
		t.Error("the directory after the rerun differs from a run from scratch")
	}
}

// progressLine is the line releases prints per release.
var progressLine = regexp.MustCompile(`^keyfindings: (\d+)/(\d+) (\S+) (up to date|reused|extracted \([^)]+\)) in (\S+), (\S+) elapsed$`)

// TestReleasesProgress: one line per release on stderr, N/total with the
// tag, whether it was extracted, reused (its pages rendered again from
// the records in --out) or up to date (nothing written), the time it
// took and the time since the run began; none with --quiet.
func TestReleasesProgress(t *testing.T) {
	f := newReleaseFixture(t, 4)
	out := filepath.Join(t.TempDir(), "rel")
	args := []string{"releases", "--repo", f.dir, "--defs", releasesDefs, "--web-url", fixtureWeb, "--out", out}
	tags := []string{"v0.9.0", "v0.10.0", "v1.0.0"}
	for _, how := range []string{"extracted (not built before)", "up to date"} {
		_, stderr, code := kf(args...)
		if code != 0 {
			t.Fatal(stderr)
		}
		var n int
		for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
			m := progressLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			for _, text := range m[5:7] {
				if d, err := time.ParseDuration(text); err != nil || d < 0 {
					t.Errorf("%q: the time %q is not a duration", line, text)
				}
			}
			if n >= len(tags) || m[1] != fmt.Sprint(n+1) || m[2] != "3" || m[3] != tags[n] || m[4] != how {
				t.Errorf("progress line %q, want %d/3 %s %s", line, n+1, tags[min(n, len(tags)-1)], how)
			}
			n++
		}
		if n != len(tags) {
			t.Errorf("%d progress lines in %q, want %d", n, stderr, len(tags))
		}
	}
	if _, stderr, code := kf(append(args, "--quiet")...); code != 0 || stderr != "" {
		t.Errorf("--quiet: exit %d, stderr %q", code, stderr)
	}
}

// TestReleasesTemplatesRerender: a rerun that reuses every release still
// renders every page of the range with the templates it is given.
func TestReleasesTemplatesRerender(t *testing.T) {
	f := newReleaseFixture(t, 4)
	out := filepath.Join(t.TempDir(), "rel")
	f.releases(out)
	custom := t.TempDir()
	for _, name := range []string{"releases.md.tmpl", "changes.md.tmpl"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "templates", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(custom, name), append(data, "\nCustom "+name+"\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f.releases(out, "--templates", custom)
	files := readTree(t, out)
	if !bytes.Contains(files["index.html"], []byte("Custom releases.md.tmpl")) {
		t.Error("index.html was not rendered with the given templates")
	}
	if !bytes.Contains(files["v1.0.0/changes.html"], []byte("Custom changes.md.tmpl")) {
		t.Error("v1.0.0/changes.html was not rendered with the given templates")
	}
}

// TestReleasesRerunWritesNothing: a second run over the same releases with
// nothing new leaves every file in place, not rewritten (the same inode),
// so a published directory is not churned by a scheduled re-run.
func TestReleasesRerunWritesNothing(t *testing.T) {
	f := newReleaseFixture(t, 4)
	out := filepath.Join(t.TempDir(), "rel")
	f.releases(out)
	before := map[string]os.FileInfo{}
	filepath.WalkDir(out, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			before[p], _ = os.Stat(p)
		}
		return err
	})
	if len(before) == 0 {
		t.Fatal("the first run wrote nothing")
	}
	f.releases(out)
	after := 0
	filepath.WalkDir(out, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		after++
		info, _ := os.Stat(p)
		if b, ok := before[p]; !ok || !os.SameFile(b, info) {
			t.Errorf("the re-run rewrote %s", p)
		}
		return nil
	})
	if after != len(before) {
		t.Errorf("%d files after the re-run, %d before", after, len(before))
	}
}

// TestReleasesAddOneRewritesOnly: a new release added to a directory
// writes its own directory and rewrites only the files that show it:
// the pages of the release before it (their link to the next release),
// the index, its minor version's page and the one before (its link to the
// newer), the timelines and the manifest. The other releases and minor
// versions' pages are left in place, file for file.
func TestReleasesAddOneRewritesOnly(t *testing.T) {
	f := newReleaseFixture(t, 4)
	out := filepath.Join(t.TempDir(), "rel")
	f.releases(out)
	before := map[string]os.FileInfo{}
	for name := range readTree(t, out) {
		info, err := os.Stat(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		before[name] = info
	}
	f.commit() // v1.1.0
	_, stderr, code := kf(append(append([]string{"releases"}, slices.DeleteFunc(f.src(), func(a string) bool { return a == "--quiet" })...), "--out", out)...)
	if code != 0 {
		t.Fatal(stderr)
	}
	// Only the release before the new one is rendered again; the others
	// are not even read.
	var hows []string
	for _, line := range strings.Split(stderr, "\n") {
		if m := progressLine.FindStringSubmatch(line); m != nil {
			hows = append(hows, m[3]+" "+m[4])
		}
	}
	if want := []string{"v0.9.0 up to date", "v0.10.0 up to date", "v1.0.0 reused", "v1.1.0 extracted (not built before)"}; !slices.Equal(hows, want) {
		t.Errorf("progress %q, want %q", hows, want)
	}
	var rewritten []string
	for name := range readTree(t, out) {
		info, _ := os.Stat(filepath.Join(out, name))
		if b, ok := before[name]; !ok || !os.SameFile(b, info) {
			rewritten = append(rewritten, name)
		}
	}
	slices.Sort(rewritten)
	var want []string
	for name := range readTree(t, out) {
		switch {
		case strings.HasPrefix(name, "v1.1.0/"), strings.HasPrefix(name, "timeline/"),
			strings.HasPrefix(name, "v1.0.0/") && strings.HasSuffix(name, ".html"),
			slices.Contains([]string{"index.html", "v1.0.html", "v1.1.html", ".keyfindings-releases.json"}, name):
			want = append(want, name)
		}
	}
	slices.Sort(want)
	if !slices.Equal(rewritten, want) {
		t.Errorf("adding v1.1.0 wrote\n%s\nwant\n%s", strings.Join(rewritten, "\n"), strings.Join(want, "\n"))
	}
}

// TestTagCommits: the tags read in one pass name the commits that
// resolving each tag gives, annotated tags and lightweight ones alike.
func TestTagCommits(t *testing.T) {
	f := newReleaseFixture(t, 5)
	commits := tagCommits(f.repo)
	n := 0
	for _, tags := range releaseFixtureTags {
		for _, tag := range tags {
			c, err := source.ResolveCommit(f.repo, tag)
			if err != nil {
				t.Fatal(err)
			}
			if commits[tag] != c.Hash.String() {
				t.Errorf("%s: %q, want %s", tag, commits[tag], c.Hash)
			}
			n++
		}
	}
	if len(commits) != n {
		t.Errorf("%d tags mapped, want %d", len(commits), n)
	}
}

// TestReleasesReadsAhead: the next release is extracted while the one
// before is being written (git and extraction on one goroutine, rendering
// and writing on another), and the directory is the same as ever.
func TestReleasesReadsAhead(t *testing.T) {
	f := newReleaseFixture(t, 4) // v0.9.0, v0.10.0, v1.0.0
	second := make(chan struct{})
	var once sync.Once
	onExtract = func(tag string) {
		if tag == "v0.10.0" {
			once.Do(func() { close(second) })
		}
	}
	var waited []string
	onPut = func(tag string) {
		if tag != "v0.9.0" {
			return
		}
		select {
		case <-second:
			waited = append(waited, tag)
		case <-time.After(20 * time.Second):
			t.Error("v0.10.0 was not extracted while v0.9.0 was about to be written")
		}
	}
	defer func() { onExtract, onPut = func(string) {}, func(string) {} }()
	out := filepath.Join(t.TempDir(), "rel")
	f.releases(out)
	if !slices.Equal(waited, []string{"v0.9.0"}) {
		t.Errorf("writing waited for the next extraction at %v, want at v0.9.0", waited)
	}
	onExtract, onPut = func(string) {}, func(string) {}
	m, _, err := site.ReadReleasesManifest(out)
	if err != nil || m == nil || len(m.Releases) != 3 {
		t.Fatalf("manifest after reading ahead: %+v, %v", m, err)
	}
}

// gcPercentNow is the collector's target, left as it is.
func gcPercentNow() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// checkRunSetting checks a runtime setting a command sets for its run:
// with the environment variable env unset, read gives want while the
// command runs; with env set to set, the value it had before; either way
// the value before once the run ends. run runs the command, calling hook
// while it runs.
func checkRunSetting(t *testing.T, env, set string, want int64, read func() int64, run func(hook func())) {
	t.Helper()
	before := read()
	for _, tc := range []struct {
		env  string
		want int64
	}{{"", want}, {set, before}} {
		t.Setenv(env, tc.env)
		var during []int64
		run(func() { during = append(during, read()) })
		if len(during) == 0 || during[0] != tc.want {
			t.Errorf("%s=%q: during the run %v, want %d", env, tc.env, during, tc.want)
		}
		if after := read(); after != before {
			t.Errorf("%s=%q: after the run %d, want %d as before", env, tc.env, after, before)
		}
	}
}

// TestReleasesGC: a releases run collects garbage at releasesGCPercent
// unless GOGC says otherwise, sets the runtime's soft memory limit to
// releasesMemoryLimit unless GOMEMLIMIT does, and restores both when it
// ends.
func TestReleasesGC(t *testing.T) {
	f := newReleaseFixture(t, 2)
	run := func(hook func()) {
		onPut = func(string) { hook() }
		defer func() { onPut = func(string) {} }()
		f.releases(filepath.Join(t.TempDir(), "rel"))
	}
	checkRunSetting(t, "GOGC", "200", releasesGCPercent, func() int64 { return int64(gcPercentNow()) }, run)
	checkRunSetting(t, "GOMEMLIMIT", "1GiB", releasesMemoryLimit, func() int64 { return debug.SetMemoryLimit(-1) }, run)
}

// A findings.json changed after it was written is found by the next full
// run and its release built again, even when a run in between rendered
// that release's pages anew (it gained a neighbour) and rewrote the
// manifest, and whether the change kept the file's size, or its size and
// (set back) its time. The stamps that spare a run reading each file
// are kept per file, outside the output.
func TestReleasesTamperedThenRefreshed(t *testing.T) {
	for _, tag := range []string{"v1.0.0", "v0.9.0"} {
		for _, c := range []struct {
			name, with string
			older      bool
		}{
			{"same size", `"missing"`, false},
			{"other size", `"missing" `, false},
			{"same size, older time", `"missing"`, true},
		} {
			t.Run(tag+" "+c.name, func(t *testing.T) {
				f := newReleaseFixture(t, 4)
				var extracted []string
				recordExtracted(t, &extracted)
				out := filepath.Join(t.TempDir(), "rel")
				f.releases(out)
				tampered := filepath.Join(out, tag, "findings.json")
				data, _ := os.ReadFile(tampered)
				if !bytes.Contains(data, []byte(`"located"`)) {
					t.Fatal("the fixture's release has no located record")
				}
				if err := os.WriteFile(tampered, bytes.Replace(data, []byte(`"located"`), []byte(c.with), 1), 0o644); err != nil {
					t.Fatal(err)
				}
				if past := time.Now().Add(-time.Hour); c.older {
					if err := os.Chtimes(tampered, past, past); err != nil {
						t.Fatal(err)
					}
				}
				f.commit() // v1.1.0: v1.0.0's pages link to it
				f.releases(out, "--from", "v1.1.0")
				extracted = nil
				f.releases(out)
				if !slices.Contains(extracted, tag) {
					t.Errorf("the full run extracted %v, not the tampered %s", extracted, tag)
				}
				scratch := filepath.Join(t.TempDir(), "scratch")
				f.releases(scratch)
				if !equalTrees(t, readTree(t, out), readTree(t, scratch)) {
					t.Errorf("after the full run the directory differs from a build from scratch")
				}
			})
		}
	}
}

// recordExtracted appends to into the tags a releases run extracts,
// until the test ends.
func recordExtracted(t *testing.T, into *[]string) {
	onExtract = func(tag string) { *into = append(*into, tag) }
	t.Cleanup(func() { onExtract = func(string) {} })
}
