package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/keyfindings/keyfindings/findings"
)

// Options says which source to open.
type Options struct {
	// Repo is a URL, a local git repository, a plain directory, or "" for
	// the pin.
	Repo string
	// Ref is a tag, branch or commit; "" means the pin's ref when the
	// repository holds that tag (always for the pin itself), else HEAD.
	Ref string
	// CacheDir holds fetched repositories; "" means DefaultCacheDir().
	CacheDir string
	// WebURL overrides the web URL used for permalinks and source.repo.
	WebURL string
	// Progress receives network progress; nil for none.
	Progress io.Writer
	// Pin is the default source.
	Pin findings.Pin
	// Timeout bounds all network work of one Open; 0 means no bound.
	Timeout time.Duration
}

// Source is an opened repository or directory, before a ref is chosen.
// Open chooses its implementation from what Options.Repo names: a local
// git repository read in place, a URL cache (a repository fetched into
// the cache directory; the pin is one, whose default ref is pinned to a
// commit), or a plain directory of files. What differs between them is
// in these methods, never in a kind their callers test.
type Source interface {
	// At resolves ref ("" for the default ref: the pin's tag when the
	// repository holds it, else HEAD) to a snapshot, making it available
	// first as Ensure does. When the default ref is the pin's tag, a tag
	// that names another commit than the pinned one is an error.
	At(ctx context.Context, ref string) (*Resolved, error)
	// Ensure makes ref (a tag, branch or commit) available: a URL cache
	// fetches it when it lacks it, a local repository has what it has
	// (nothing is done), and a plain directory, which has no refs, gives
	// the error At gives. "" asks for nothing.
	Ensure(ctx context.Context, ref string) error
	// Tags lists the tag names, sorted. A plain directory has none: the
	// error wraps ErrPlainDirectory.
	Tags(ctx context.Context) ([]string, error)
	// WebURL is the base for permalinks and the record's source.repo.
	WebURL() string
	// Repository returns the git repository behind the source, for walks
	// of its history and tags; a plain directory has none: the error
	// wraps ErrPlainDirectory. A URL cache replaces its repository when
	// a fetch starts the cache entry afresh, so ask again after Ensure or
	// At.
	Repository() (*git.Repository, error)
	// Close releases what the source holds: open pack files and a cache
	// entry's lock.
	Close() error
}

// Open opens the source named by opts.Repo without choosing a commit. It
// is the one place that tells a URL, a local repository and a plain
// directory apart.
func Open(ctx context.Context, opts Options) (Source, error) {
	web := webURL(opts, opts.Repo)
	switch repo := opts.Repo; {
	case repo == "":
		if opts.Pin.Repo == "" {
			return nil, &Error{Problem: "no repository given and no pin configured", Remedy: GiveSource}
		}
		return openURL(ctx, opts, opts.Pin.Repo, web, opts.Pin.Ref, opts.Pin.Commit)
	case fileURLsInPlace && localFileURL(repo) != "":
		// go-git's file transport runs git's upload-pack, which needs a
		// git binary and refuses a copy that lacks unrelated blobs; a
		// local directory is read in place instead, as a path is.
		return openLocal(localFileURL(repo), opts, web)
	case IsURL(repo):
		return openURL(ctx, opts, repo, web, "HEAD", "")
	default:
		return openLocal(repo, opts, web)
	}
}

// IsURL reports whether s names a remote (or file://) repository.
func IsURL(s string) bool {
	for _, p := range []string{"https://", "http://", "git://", "file://", "ssh://"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return strings.HasPrefix(s, "git@") && strings.Contains(s, ":")
}

// fileURLsInPlace makes a file:// URL of a local directory open in place.
// The tests of the URL cache turn it off to reach the fetch path without a
// server.
var fileURLsInPlace = true

// localFileURL returns the local path a file:// URL names (host empty or
// localhost), "" for anything else.
func localFileURL(s string) string {
	if !strings.HasPrefix(s, "file://") {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Host != "" && u.Host != "localhost") || u.Path == "" || u.RawQuery != "" || u.Fragment != "" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// openLocal opens the local path p: a git repository (bare, with a work
// tree, or a linked worktree) read in place, else a plain directory.
func openLocal(p string, opts Options, web string) (Source, error) {
	if scheme, _, ok := strings.Cut(p, "://"); ok && !strings.ContainsAny(scheme, "/\\") {
		return nil, &Error{Repo: p, Problem: fmt.Sprintf("unsupported URL scheme %q; use https://, http://, git://, ssh:// or file://, or a local path", scheme)}
	}
	info, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &Error{Repo: p, Problem: "no such file or directory; give a git repository, a directory of source files or a URL", Err: err}
		}
		return nil, &Error{Repo: p, Problem: err.Error(), Err: err}
	}
	if !info.IsDir() {
		return nil, &Error{Repo: p, Problem: "is a file, not a git repository or directory; give the repository's directory"}
	}
	// A linked worktree keeps its objects and refs in the main
	// repository's directory (commondir).
	r, err := git.PlainOpenWithOptions(p, &git.PlainOpenOptions{DetectDotGit: false, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return &plainDir{root: p, webURL: web}, nil
	}
	if err == nil {
		r, err = withSmallCache(r)
	}
	if err != nil {
		return nil, &Error{Repo: p, Problem: "cannot open as a git repository: " + err.Error(), Err: err}
	}
	g := &gitRepo{repo: r, defaultRef: "HEAD", webURL: web}
	g.defaultToPin(opts.Pin)
	return g, nil
}

// webURL picks the web URL for permalinks: --web-url, else a GitHub source
// URL, else the pin's.
func webURL(opts Options, repo string) string {
	if opts.WebURL != "" {
		return strings.TrimSuffix(opts.WebURL, "/")
	}
	if repo == "" {
		repo = opts.Pin.Repo
	}
	if u, ok := githubWebURL(repo); ok {
		return u
	}
	return strings.TrimSuffix(strings.TrimSuffix(opts.Pin.Repo, "/"), ".git")
}

func githubWebURL(s string) (string, bool) {
	switch {
	case strings.HasPrefix(s, "git@github.com:"):
		s = "https://github.com/" + strings.TrimPrefix(s, "git@github.com:")
	case strings.HasPrefix(s, "ssh://git@github.com/"):
		s = "https://github.com/" + strings.TrimPrefix(s, "ssh://git@github.com/")
	case strings.HasPrefix(s, "http://github.com/"), strings.HasPrefix(s, "git://github.com/"):
		s = "https://github.com/" + s[strings.Index(s, "github.com/")+len("github.com/"):]
	case strings.HasPrefix(s, "https://github.com/"):
	default:
		return "", false
	}
	return strings.TrimSuffix(strings.TrimSuffix(s, "/"), ".git"), true
}

// Resolved is a snapshot at a chosen ref.
type Resolved struct {
	Snapshot Snapshot
	// Ref is the ref as the user gave it (or the default).
	Ref string
	// Commit is the full commit id, "" for a plain directory.
	Commit string
	// WebURL is the base for this snapshot's permalinks: the source's web
	// URL, "" when there is no commit to link to (a plain directory).
	WebURL string
}

// Label names the snapshot for messages: the ref and the short commit
// ("v1.18.3 (127bdb3)"), or "plain directory".
func (r *Resolved) Label() string {
	src := findings.Source{Ref: r.Ref}
	if r.Commit != "" {
		src.Commit = &r.Commit
	}
	return findings.SourceLabel(src)
}

// ResolveCommit resolves a tag, branch or (abbreviated) commit id to a
// commit. An abbreviated id matching several commits is an error.
func ResolveCommit(repo *git.Repository, ref string) (*object.Commit, error) {
	if strings.HasPrefix(ref, "-") || ref == "" {
		return nil, refErrorf(ref, "ref %q is not a valid ref; give a tag, branch or commit", ref)
	}
	// go-git reads "<rev>:<path>" and "<rev>^{tree}" as the commit itself;
	// git reads them as a blob or a tree. Neither names a commit.
	if strings.Contains(ref, ":") || (strings.Contains(ref, "^{") && !strings.HasSuffix(ref, "^{commit}")) {
		return nil, refErrorf(ref, "ref %s names a file or a tree, not a commit; give a tag, branch or commit", ref)
	}
	named := isRefName(repo, ref)
	if !named && allHex(ref) {
		if len(ref) < 4 {
			return nil, refErrorf(ref, "ref %s: an abbreviated commit id needs at least 4 hex digits", ref)
		}
		// Commit ids are lowercase; git accepts either case.
		ref = strings.ToLower(ref)
	}
	h, err := repo.ResolveRevision(plumbing.Revision(ref))
	if err != nil {
		// go-git stops at the first tag object; git peels a tag of a tag.
		if h, err = peelTag(repo, ref); err != nil {
			if alt := otherTagSpelling(repo, ref); alt != "" {
				return nil, refErrorf(ref, "ref %s: unknown revision in this repository; did you mean %s?", ref, alt)
			}
			return nil, refErrorf(ref, "ref %s: unknown revision in this repository; list tags with `git tag` or give a full commit id", ref)
		}
	}
	if isHex(ref) && len(ref) < 40 && !named {
		if n, err := countCommitsWithPrefix(repo, ref); err == nil && n > 1 {
			return nil, refErrorf(ref, "ref %s: abbreviated commit id is ambiguous (%d commits match); give more digits", ref, n)
		}
	}
	c, err := repo.CommitObject(*h)
	if err != nil {
		return nil, refErrorf(ref, "ref %s: %s is not a readable commit: %v", ref, h, err)
	}
	return c, nil
}

// otherTagSpelling returns the tag that ref names with its "v" prefix
// added or dropped (1.18.3 for v1.18.3 and back), "" when there is none.
func otherTagSpelling(repo *git.Repository, ref string) string {
	alt := "v" + ref
	if rest, ok := strings.CutPrefix(ref, "v"); ok {
		alt = rest
	}
	if alt == "" {
		return ""
	}
	if _, err := repo.Reference(plumbing.NewTagReferenceName(alt), false); err != nil {
		return ""
	}
	return alt
}

// peelTag follows refs/tags/<name> through any number of annotated tag
// objects to the commit at the end.
func peelTag(repo *git.Repository, name string) (*plumbing.Hash, error) {
	r, err := repo.Reference(plumbing.NewTagReferenceName(name), true)
	if err != nil {
		return nil, err
	}
	h := r.Hash()
	for range 16 {
		t, err := repo.TagObject(h)
		if err != nil {
			return nil, err
		}
		if t.TargetType == plumbing.CommitObject {
			return &t.Target, nil
		}
		if t.TargetType != plumbing.TagObject {
			return nil, fmt.Errorf("tag %s points at a %s, not a commit", name, t.TargetType)
		}
		h = t.Target
	}
	return nil, fmt.Errorf("tag %s: too many nested tags", name)
}

// allHex reports whether s is non-empty and only hex digits.
func allHex(s string) bool {
	return s != "" && strings.Trim(strings.ToLower(s), "0123456789abcdef") == ""
}

func isRefName(repo *git.Repository, name string) bool {
	for _, full := range []string{"refs/tags/" + name, "refs/heads/" + name, "refs/remotes/" + name, "refs/" + name} {
		if _, err := repo.Reference(plumbing.ReferenceName(full), false); err == nil {
			return true
		}
	}
	return false
}

func countCommitsWithPrefix(repo *git.Repository, prefix string) (int, error) {
	iter, err := repo.CommitObjects()
	if err != nil {
		return 0, err
	}
	defer iter.Close()
	n := 0
	err = iter.ForEach(func(c *object.Commit) error {
		if strings.HasPrefix(c.Hash.String(), prefix) {
			n++
		}
		return nil
	})
	return n, err
}

// objectCacheSize bounds go-git's cache of decoded objects per repository.
// The default (96 MiB) only costs memory here: each blob is read once per
// run and the parse cache keeps what is reused.
const objectCacheSize = 16 * cache.MiByte

// maxOpenPacks bounds the pack files a repository keeps open.
const maxOpenPacks = 8

// withSmallCache reopens r's object storage with a smaller object cache.
// The work tree is dropped: keyfindings reads git objects only. Alternate
// object directories (objects/info/alternates, as `git clone --shared`
// writes) are looked up on the real filesystem, where git looks for them.
func withSmallCache(r *git.Repository) (*git.Repository, error) {
	st, ok := r.Storer.(*filesystem.Storage)
	if !ok {
		return r, nil
	}
	// A few pack files stay open between reads: without it go-git opens
	// and closes the pack for every object, which dominates a walk over
	// thousands of commits (keyfindings log). Close releases them.
	opts := filesystem.Options{AlternatesFS: osfs.New("/"), MaxOpenDescriptors: maxOpenPacks}
	return git.Open(newPackStorage(filesystem.NewStorageWithOptions(st.Filesystem(), cache.NewObjectLRU(objectCacheSize), opts)), nil)
}
