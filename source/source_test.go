package source

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

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

func openAt(t *testing.T, opts Options, ref string) (*Opened, *Resolved, error) {
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

func TestLocalGitSource(t *testing.T) {
	r, first, second := fixtureRepo(t)
	tests := []struct {
		ref, commit string
		line        int
	}{
		{"v0.1.0", first, 6},
		{"main", second, 3},
		{first[:8], first, 6},
		{second, second, 3},
		{"", second, 3}, // HEAD
	}
	for _, tt := range tests {
		t.Run("ref="+tt.ref, func(t *testing.T) {
			o, at, err := openAt(t, Options{Repo: r.Dir, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}, tt.ref)
			if err != nil {
				t.Fatal(err)
			}
			if o.Kind != KindLocalGit || at.Commit != tt.commit {
				t.Fatalf("kind %v commit %s, want local git at %s", o.Kind, at.Commit, tt.commit)
			}
			if line := providerLine(t, at.Snapshot); line != tt.line {
				t.Fatalf("provider at line %d, want %d", line, tt.line)
			}
			if o.WebURL != "https://github.com/anomalyco/opencode" || at.WebURL != o.WebURL {
				t.Errorf("web URL %s (snapshot %s), want the pin's", o.WebURL, at.WebURL)
			}
			if repo, err := o.Repository(); err != nil || repo == nil {
				t.Errorf("Repository: %v, %v", repo, err)
			}
			// A local repository has what it has: Ensure fetches nothing.
			if err := o.Ensure(context.Background(), "v9.9.9"); err != nil {
				t.Errorf("Ensure of a missing tag: %v, want nothing done", err)
			}
			if at.Snapshot.Commit() != tt.commit || at.Snapshot.CommittedAt().IsZero() {
				t.Errorf("snapshot at %s (%v), want %s", at.Snapshot.Commit(), at.Snapshot.CommittedAt(), tt.commit)
			}
		})
	}
}

func TestBareRepoAndWebURL(t *testing.T) {
	r, first, _ := fixtureRepo(t)
	bare := filepath.Join(t.TempDir(), "bare.git")
	if _, err := git.PlainClone(bare, true, &git.CloneOptions{URL: r.Dir, Tags: git.AllTags}); err != nil {
		t.Fatal(err)
	}
	o, at, err := openAt(t, Options{Repo: bare, WebURL: "https://git.example/mirror/", Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}, "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	if at.Commit != first || o.WebURL != "https://git.example/mirror" {
		t.Errorf("commit %s web %s", at.Commit, o.WebURL)
	}
	// Read-only: opening changes nothing in the repository.
	before := listFiles(t, bare)
	providerLine(t, at.Snapshot)
	if after := listFiles(t, bare); after != before {
		t.Error("opening the repository changed it")
	}
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

func TestAmbiguousShortHash(t *testing.T) {
	r := gittest.New(t)
	seen := map[string]string{}
	var prefix string
	for i := 0; i < 3000 && prefix == ""; i++ {
		r.Write("n.txt", []byte(strings.Repeat("x", i)))
		h := r.Commit("c")
		if _, ok := seen[h[:4]]; ok {
			prefix = h[:4]
		}
		seen[h[:4]] = h
	}
	if prefix == "" {
		t.Skip("no colliding 4-digit prefix in 3000 commits")
	}
	_, _, err := openAt(t, Options{Repo: r.Dir, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}, prefix)
	if err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Fatalf("short hash %s: err %v, want ambiguous", prefix, err)
	}
}

func TestURLSourceAndCache(t *testing.T) {
	fetchFileURLs(t)
	r, first, _ := fixtureRepo(t)
	cache := t.TempDir()
	url := "file://" + r.Dir
	var progress strings.Builder
	opts := Options{Repo: url, CacheDir: cache, Progress: &progress, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}
	o, at, err := openAt(t, opts, "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	if o.Kind != KindURL || at.Commit != first {
		t.Fatalf("kind %v commit %s", o.Kind, at.Commit)
	}
	o.Close()
	entries, _ := filepath.Glob(filepath.Join(cache, "repos", "*.git"))
	if len(entries) != 1 {
		t.Fatalf("cache entries %v, want one bare repository", entries)
	}
	// The origin disappears: the cached copy still serves the ref.
	os.RemoveAll(r.Dir)
	progress.Reset()
	o2, at2, err := openAt(t, opts, "v0.1.0")
	if err != nil {
		t.Fatalf("cached ref after the origin went away: %v", err)
	}
	if at2.Commit != first || !strings.Contains(progress.String(), "using the cached copy") {
		t.Errorf("commit %s progress %q", at2.Commit, progress.String())
	}
	o2.Close()
	// A ref the cache never fetched fails with one line.
	_, _, err = openAt(t, opts, "v0.2.0")
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("unfetchable ref: %v", err)
	}
}

func TestPinMismatch(t *testing.T) {
	r, first, second := fixtureRepo(t)
	cache := t.TempDir()
	pin := findings.Pin{Repo: "file://" + r.Dir, Ref: "v0.1.0", Commit: second}
	_, _, err := openAt(t, Options{CacheDir: cache, Pin: pin}, "")
	if err == nil || !strings.Contains(err.Error(), "tag moved") {
		t.Fatalf("moved tag: %v", err)
	}
	pin.Commit = first
	o, at, err := openAt(t, Options{CacheDir: cache, Pin: pin}, "")
	if err != nil {
		t.Fatal(err)
	}
	if o.Kind != KindPin || at.Commit != first || at.Ref != "v0.1.0" {
		t.Errorf("kind %v commit %s ref %s", o.Kind, at.Commit, at.Ref)
	}
	// Permalinks of a non-GitHub pin URL fall back to the pin URL.
	if o.WebURL != "file://"+r.Dir {
		t.Errorf("web url %s", o.WebURL)
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

func TestCorruptCacheRefetched(t *testing.T) {
	fetchFileURLs(t)
	r, first, _ := fixtureRepo(t)
	cache := t.TempDir()
	opts := Options{Repo: "file://" + r.Dir, CacheDir: cache, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}
	o1, _, err := openAt(t, opts, "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	o1.Close()
	// Truncate every pack and drop every loose object of the entry.
	entry, _ := filepath.Glob(filepath.Join(cache, "repos", "*.git"))
	packs, _ := filepath.Glob(filepath.Join(entry[0], "objects", "pack", "*.pack"))
	loose, _ := filepath.Glob(filepath.Join(entry[0], "objects", "??", "*"))
	if len(packs)+len(loose) == 0 {
		t.Fatal("no objects in the cache entry")
	}
	for _, p := range packs {
		info, _ := os.Stat(p)
		os.Truncate(p, info.Size()/2)
	}
	for _, p := range loose {
		os.Truncate(p, 3)
	}
	var progress strings.Builder
	opts.Progress = &progress
	o, at, err := openAt(t, opts, "v0.1.0")
	if err != nil {
		t.Fatalf("damaged cache: %v", err)
	}
	if at.Commit != first || !strings.Contains(progress.String(), "damaged") {
		t.Errorf("commit %s, progress %q", at.Commit, progress.String())
	}
	providerLine(t, at.Snapshot)
	o.Close()
}

// TestRefForms checks the ref spellings git accepts beyond the plain ones:
// an uppercase abbreviated id, and a tag of a tag, peeled to its commit.
func TestRefForms(t *testing.T) {
	r, first, _ := fixtureRepo(t)
	tagRef, err := r.Repo.Reference("refs/tags/v0.1.0", true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Repo.CreateTag("nested", tagRef.Hash(), &git.CreateTagOptions{Tagger: &object.Signature{Name: "F", Email: "f@example.invalid", When: r.When}, Message: "a tag of a tag"}); err != nil {
		t.Fatal(err)
	}
	pin := findings.Pin{Repo: "https://github.com/anomalyco/opencode"}
	for _, ref := range []string{strings.ToUpper(first[:8]), "nested"} {
		_, at, err := openAt(t, Options{Repo: r.Dir, Pin: pin}, ref)
		if err != nil {
			t.Errorf("--ref %s: %v", ref, err)
			continue
		}
		if at.Commit != first || at.Ref != ref {
			t.Errorf("--ref %s: commit %s ref %s, want %s", ref, at.Commit, at.Ref, first)
		}
	}
}

// TestLinkedWorktreeAndAlternates opens two layouts that keep a
// repository's objects elsewhere: a linked worktree (as `git worktree
// add` makes it: a .git file and a commondir) and a repository that
// borrows its objects through objects/info/alternates (as `git clone
// --shared` makes it). Both are built by hand, so no git binary is needed.
func TestLinkedWorktreeAndAlternates(t *testing.T) {
	r, first, second := fixtureRepo(t)
	pin := findings.Pin{Repo: "https://github.com/anomalyco/opencode"}
	mainGit := filepath.Join(r.Dir, ".git")

	wt := t.TempDir()
	admin := filepath.Join(mainGit, "worktrees", "wt")
	writeFile(t, filepath.Join(admin, "HEAD"), first+"\n")
	writeFile(t, filepath.Join(admin, "commondir"), "../..\n")
	writeFile(t, filepath.Join(admin, "gitdir"), filepath.Join(wt, ".git")+"\n")
	writeFile(t, filepath.Join(wt, ".git"), "gitdir: "+admin+"\n")

	shared := t.TempDir()
	if _, err := git.PlainInit(shared, true); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(shared, "objects", "info", "alternates"), filepath.Join(mainGit, "objects")+"\n")
	writeFile(t, filepath.Join(shared, "refs", "tags", "v0.2.0"), second+"\n")

	for _, tt := range []struct{ name, dir, ref, commit string }{
		{"worktree HEAD", wt, "", first},
		{"worktree tag", wt, "v0.1.0", first},
		{"shared clone", shared, "v0.2.0", second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, at, err := openAt(t, Options{Repo: tt.dir, Pin: pin}, tt.ref)
			if err != nil {
				t.Fatal(err)
			}
			if o.Kind != KindLocalGit || at.Commit != tt.commit {
				t.Fatalf("kind %v commit %s, want a git repository at %s", o.Kind, at.Commit, tt.commit)
			}
			if _, err := at.Snapshot.ReadFile(routingPath); err != nil {
				t.Errorf("read %s: %v", routingPath, err)
			}
		})
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

// TestURLCacheBeyondShallow fetches a URL source one tag at a time
// (shallow), then asks for history behind that tag: an older commit by id,
// an older tag, a branch and HEAD~1. Each must resolve, in the same cache
// entry, as it would in a fresh clone.
func TestURLCacheBeyondShallow(t *testing.T) {
	fetchFileURLs(t)
	r, first, second := fixtureRepo(t)
	// A lightweight tag, as `git tag v0.2.0` makes.
	if err := r.Repo.Storer.SetReference(plumbing.NewHashReference("refs/tags/v0.2.0", plumbing.NewHash(second))); err != nil {
		t.Fatal(err)
	}
	opts := Options{Repo: "file://" + r.Dir, CacheDir: t.TempDir(), Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}
	for _, tt := range []struct{ ref, commit string }{
		{"v0.2.0", second},
		{first, first},
		{"v0.1.0", first},
		{"main", second},
		{"HEAD~1", first},
	} {
		opts.Ref = tt.ref // as the commands pass it: Open fetches what it names
		o, at, err := openAt(t, opts, tt.ref)
		if err != nil {
			t.Fatalf("--ref %s after the earlier refs: %v", tt.ref, err)
		}
		if at.Commit != tt.commit {
			t.Errorf("--ref %s: commit %s, want %s", tt.ref, at.Commit, tt.commit)
		}
		o.Close()
	}
}

// TestURLCacheTagWithoutCommit opens an entry that holds a tag whose
// commit it lacks (what a full fetch into a shallow entry used to leave,
// and what caches written then may still hold): the build must come out
// of it with the commit.
func TestURLCacheTagWithoutCommit(t *testing.T) {
	fetchFileURLs(t)
	r, first, _ := fixtureRepo(t)
	url := "file://" + r.Dir
	cache := t.TempDir()
	entry, err := openCacheRepo(cachePath(cache, url), url)
	if err != nil {
		t.Fatal(err)
	}
	tagRef, err := r.Repo.Reference("refs/tags/v0.1.0", true)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := r.Repo.Storer.EncodedObject(plumbing.TagObject, tagRef.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := entry.Storer.SetEncodedObject(obj); err != nil {
		t.Fatal(err)
	}
	if err := entry.Storer.SetReference(tagRef); err != nil {
		t.Fatal(err)
	}
	_, at, err := openAt(t, Options{Repo: url, Ref: "v0.1.0", CacheDir: cache, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}, "v0.1.0")
	if err != nil {
		t.Fatalf("entry with a tag but not its commit: %v", err)
	}
	if at.Commit != first {
		t.Errorf("commit %s, want %s", at.Commit, first)
	}
}

// TestPinTagIsDefault: a local clone that holds the pin's tag is read at
// that tag when no ref is given, not at its HEAD (which may be a commit
// upstream never had); a tag that moved is the pin's error; a clone
// without the tag is read at HEAD.
func TestPinTagIsDefault(t *testing.T) {
	r, first, second := fixtureRepo(t)
	pin := findings.Pin{Repo: "https://github.com/anomalyco/opencode", Ref: "v0.1.0", Commit: first}
	o, at, err := openAt(t, Options{Repo: r.Dir, Pin: pin}, "")
	if err != nil {
		t.Fatal(err)
	}
	if o.Kind != KindLocalGit || at.Commit != first || at.Ref != "v0.1.0" || at.Label() != "v0.1.0 ("+first[:7]+")" {
		t.Errorf("kind %v at %s %s (%s), want the pin's tag v0.1.0 at %s", o.Kind, at.Ref, at.Commit, at.Label(), first)
	}
	if _, at, err := openAt(t, Options{Repo: r.Dir, Pin: pin}, "main"); err != nil || at.Commit != second {
		t.Errorf("an explicit ref: %v, %+v", err, at)
	}
	moved := pin
	moved.Commit = second
	if _, _, err := openAt(t, Options{Repo: r.Dir, Pin: moved}, ""); err == nil || !strings.Contains(err.Error(), "tag moved") {
		t.Errorf("moved tag: %v", err)
	}
	other := pin
	other.Ref = "v9.9.9"
	if _, at, err := openAt(t, Options{Repo: r.Dir, Pin: other}, ""); err != nil || at.Commit != second || at.Ref != "HEAD" {
		t.Errorf("no pin tag: %v, %+v; want HEAD at %s", err, at, second)
	}
}

// TestRefSuggestsTagSpelling: a release named without its "v" (or with
// one it does not have) is suggested in the error.
func TestRefSuggestsTagSpelling(t *testing.T) {
	r, _, _ := fixtureRepo(t)
	r.Tag("2.0.0")
	pin := findings.Pin{Repo: "https://github.com/anomalyco/opencode"}
	for ref, want := range map[string]string{"0.1.0": "did you mean v0.1.0?", "v2.0.0": "did you mean 2.0.0?", "0.9.0": "list tags with `git tag`"} {
		_, _, err := openAt(t, Options{Repo: r.Dir, Pin: pin}, ref)
		if err == nil || !strings.Contains(err.Error(), "ref "+ref+": unknown revision") || !strings.Contains(err.Error(), want) {
			t.Errorf("--ref %s: %v; want %q", ref, err, want)
		}
	}
}

// TestFileURLOpenedInPlace: a file:// URL of a local repository is read in
// place, as its path is: no git binary, no cache, and a copy that lacks
// unrelated blobs still works.
func TestFileURLOpenedInPlace(t *testing.T) {
	r, first, _ := fixtureRepo(t)
	// Drop an object no finding needs, as a partial copy lacks it: git's
	// upload-pack (go-git's file transport) refuses such a repository.
	dropLooseObject(t, r, "packages/opencode/package.json", first)
	cache := t.TempDir()
	o, at, err := openAt(t, Options{Repo: "file://" + r.Dir, CacheDir: cache, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}, "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	if o.Kind != KindLocalGit || at.Commit != first || o.WebURL != "https://github.com/anomalyco/opencode" {
		t.Errorf("kind %v commit %s web %s; want the local repository in place at %s", o.Kind, at.Commit, o.WebURL, first)
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 {
		t.Errorf("the cache was written: %v", entries)
	}
	if _, _, err := openAt(t, Options{Repo: "file://" + filepath.Join(r.Dir, "nope")}, ""); err == nil || !strings.Contains(err.Error(), "no such file or directory") {
		t.Errorf("missing directory: %v", err)
	}
}

// dropLooseObject deletes the loose object of the blob at path in commit.
func dropLooseObject(t *testing.T, r *gittest.Repo, path, commit string) {
	t.Helper()
	c, err := r.Repo.CommitObject(plumbing.NewHash(commit))
	if err != nil {
		t.Fatal(err)
	}
	f, err := c.File(path)
	if err != nil {
		t.Fatal(err)
	}
	h := f.Hash.String()
	if err := os.Remove(filepath.Join(r.Dir, ".git", "objects", h[:2], h[2:])); err != nil {
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

// TestWalkSkipsControlCharacterNames: a tree entry whose name cannot be a
// path (a newline, an escape sequence) is skipped and named, quoted; what
// lies below a bad directory goes with it; the rest is listed; and the
// cache's completeness check, which is about objects, still passes.
func TestWalkSkipsControlCharacterNames(t *testing.T) {
	r := gittest.New(t)
	x := r.Blob("x")
	bad := r.Tree([]object.TreeEntry{{Name: "system.ts", Mode: filemode.Regular, Hash: x}})
	src := r.Tree([]object.TreeEntry{{Name: "ok.ts", Mode: filemode.Regular, Hash: x}})
	root := r.Tree([]object.TreeEntry{
		{Name: "bad\x1b[31mdir", Mode: filemode.Dir, Hash: bad},
		{Name: "use std::sync::Arc;\n", Mode: filemode.Regular, Hash: x},
		{Name: "src", Mode: filemode.Dir, Hash: src},
	})
	c, err := r.Repo.CommitObject(plumbing.NewHash(r.RawCommit("control characters", root)))
	if err != nil {
		t.Fatal(err)
	}
	snap, err := NewGitSnapshot(r.Repo, c)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	skipped, err := snap.Walk(func(e Entry) error { listed = append(listed, e.Path); return nil })
	if err != nil {
		t.Fatalf("walk stopped at a bad name: %v", err)
	}
	if got, want := strings.Join(skipped, " "), `"bad\x1b[31mdir" "use std::sync::Arc;\n"`; got != want {
		t.Errorf("skipped %s, want %s", got, want)
	}
	if strings.Join(listed, " ") != "src/ok.ts" {
		t.Errorf("listed %q, want only src/ok.ts", listed)
	}
	tree, err := c.Tree()
	if err != nil {
		t.Fatal(err)
	}
	if !completeTree(tree) {
		t.Error("a tree with a control-character name counts as damaged")
	}
}
