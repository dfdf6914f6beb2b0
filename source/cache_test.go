package source

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/gittest"
)

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
	if c, ok := o.(*urlCache); !ok || c.heldPin != "" || at.Commit != first {
		t.Fatalf("%T commit %s, want a URL cache at %s", o, at.Commit, first)
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
	if c, ok := o.(*urlCache); !ok || c.heldPin != first || at.Commit != first || at.Ref != "v0.1.0" {
		t.Errorf("%T commit %s ref %s, want the pin's URL cache at %s", o, at.Commit, at.Ref, first)
	}
	// Permalinks of a non-GitHub pin URL fall back to the pin URL.
	if o.WebURL() != "file://"+r.Dir {
		t.Errorf("web url %s", o.WebURL())
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

// TestPinHeldNeedsNoNetwork: the pin's cache, once it holds the pinned
// commit and its tag, opens without asking the server (a URL cache that
// is not the pin asks, and falls back on its copy when the server is
// gone).
func TestPinHeldNeedsNoNetwork(t *testing.T) {
	r, first, _ := fixtureRepo(t)
	cache := t.TempDir()
	url := "file://" + r.Dir
	pin := findings.Pin{Repo: url, Ref: "v0.1.0", Commit: first}
	// Each run holds the entry's lock until Close.
	o, _, err := openAt(t, Options{CacheDir: cache, Pin: pin}, "")
	if err != nil {
		t.Fatal(err)
	}
	o.Close()
	os.RemoveAll(r.Dir)
	var progress strings.Builder
	o, at, err := openAt(t, Options{CacheDir: cache, Progress: &progress, Pin: pin}, "")
	if err != nil || at.Commit != first || progress.Len() != 0 {
		t.Errorf("pin offline: %v at %v, progress %q; want the held commit, no fetch", err, at, progress.String())
	}
	o.Close()
	progress.Reset()
	fetchFileURLs(t)
	if _, at, err := openAt(t, Options{Repo: url, Ref: "v0.1.0", CacheDir: cache, Progress: &progress, Pin: pin}, "v0.1.0"); err != nil || at.Commit != first || !strings.Contains(progress.String(), "using the cached copy") {
		t.Errorf("URL offline: %v at %v, progress %q; want the cached copy, said so", err, at, progress.String())
	}
}

// TestURLCacheEnsure: Ensure fetches a ref the cache lacks.
func TestURLCacheEnsure(t *testing.T) {
	fetchFileURLs(t)
	r, _, second := fixtureRepo(t)
	o, err := Open(context.Background(), Options{Repo: "file://" + r.Dir, Ref: "v0.1.0", CacheDir: t.TempDir(), Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	has := func(ref string) bool {
		repo, err := o.Repository()
		if err != nil {
			t.Fatal(err)
		}
		_, err = ResolveCommit(repo, ref)
		return err == nil
	}
	if has("main") {
		t.Fatal("the cache holds main before Ensure")
	}
	if err := o.Ensure(context.Background(), "main"); err != nil || !has("main") || !has(second) {
		t.Errorf("Ensure(main): %v; want main at %s in the cache", err, second)
	}
	// A ref the server lacks is reported by At, as what it is.
	if err := o.Ensure(context.Background(), "v9.9.9"); err != nil {
		t.Errorf("Ensure(v9.9.9): %v", err)
	}
	if _, err := o.At(context.Background(), "v9.9.9"); err == nil || !strings.Contains(err.Error(), "unknown revision") {
		t.Errorf("At(v9.9.9): %v, want unknown revision", err)
	}
}
