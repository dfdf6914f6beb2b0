package extract

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// DefaultCacheDir is where fetched repositories live unless --cache or
// KEYFINDINGS_CACHE says otherwise.
func DefaultCacheDir() (string, error) {
	if d := os.Getenv("KEYFINDINGS_CACHE"); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache directory (%v); pass --cache DIR", err)
	}
	return filepath.Join(base, "keyfindings"), nil
}

// cacheEntry is one fetched repository in the cache, held under a lock.
type cacheEntry struct {
	dir  string
	lock *os.File
}

// lockWait bounds how long a run waits for another run's fetch.
var lockWait = 10 * time.Minute

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// cachePath returns a readable, collision-free directory name for url.
func cachePath(root, url string) string {
	sum := sha256.Sum256([]byte(url))
	base := url
	if i := strings.LastIndexAny(base, "/:"); i >= 0 && i < len(base)-1 {
		base = base[i+1:]
	}
	base = unsafeName.ReplaceAllString(strings.TrimSuffix(base, ".git"), "_")
	return filepath.Join(root, "repos", base+"-"+hex.EncodeToString(sum[:6])+".git")
}

// lockCache takes an exclusive lock on the cache entry so two runs never
// fetch into one repository at once.
func lockCache(dir string) (*cacheEntry, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("create cache directory: %w (pass --cache DIR)", err)
	}
	f, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock cache entry %s: %w", dir, err)
	}
	deadline := time.Now().Add(lockWait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("lock cache entry %s: %w", dir, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("cache entry %s is locked by another keyfindings run for over %s; wait for it or pass --cache DIR", dir, lockWait)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return &cacheEntry{dir: dir, lock: f}, nil
}

func (c *cacheEntry) unlock() error {
	if c.lock == nil {
		return nil
	}
	syscall.Flock(int(c.lock.Fd()), syscall.LOCK_UN)
	err := c.lock.Close()
	c.lock = nil
	return err
}

// openURL opens (creating when needed) the cache entry for url and fetches
// what the requested ref needs.
func (o *Opened) openURL(ctx context.Context, url string) error {
	root := o.opts.CacheDir
	if root == "" {
		var err error
		if root, err = DefaultCacheDir(); err != nil {
			return err
		}
	}
	entry, err := lockCache(cachePath(root, url))
	if err != nil {
		return err
	}
	o.cache = entry
	repo, err := openCacheRepo(entry.dir, url)
	if err != nil {
		entry.unlock()
		return err
	}
	o.Repo = repo
	want := o.opts.Ref
	if want == "" {
		want = o.DefaultRef
	}
	if err := o.fetch(ctx, url, want); err != nil {
		// A ref the cache already holds is still usable when the server
		// cannot be reached: say so and go on with the cached copy.
		if _, rerr := ResolveCommit(repo, want); rerr == nil {
			if o.opts.Progress != nil {
				fmt.Fprintf(o.opts.Progress, "keyfindings: %v; using the cached copy of %s\n", err, want)
			}
			return nil
		}
		entry.unlock()
		return err
	}
	return nil
}

// openCacheRepo opens the bare repository at dir, re-creating it when it is
// missing or unreadable (an interrupted first fetch leaves such a thing).
func openCacheRepo(dir, url string) (*git.Repository, error) {
	repo, err := git.PlainOpen(dir)
	if err == nil {
		if _, err := repo.Remote("origin"); err == nil {
			return repo, nil
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("reset cache entry %s: %w", dir, err)
	}
	repo, err = git.PlainInit(dir, true)
	if err != nil {
		return nil, fmt.Errorf("create cache entry %s: %w", dir, err)
	}
	if _, err := repo.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{url}}); err != nil {
		return nil, fmt.Errorf("configure cache entry %s: %w", dir, err)
	}
	return repo, nil
}

// fetch brings ref into the cache. A full commit id or the pinned commit
// already present needs no network. Otherwise it tries a shallow fetch of
// the one ref, then a full fetch of all branches and tags.
func (o *Opened) fetch(ctx context.Context, url, ref string) error {
	if isHex(ref) && len(ref) == 40 {
		if _, err := o.Repo.CommitObject(plumbing.NewHash(ref)); err == nil {
			return nil
		}
	}
	if o.Kind == KindPin && ref == o.DefaultRef && o.PinnedCommit != "" {
		if _, err := o.Repo.CommitObject(plumbing.NewHash(o.PinnedCommit)); err == nil {
			if _, err := o.Repo.Reference(plumbing.NewTagReferenceName(ref), true); err == nil {
				return nil
			}
		}
	}
	progress := o.opts.Progress
	var specs []config.RefSpec
	if !isHex(ref) && ref != "HEAD" {
		specs = []config.RefSpec{
			config.RefSpec("+refs/tags/" + ref + ":refs/tags/" + ref),
		}
		err := o.Repo.FetchContext(ctx, &git.FetchOptions{RemoteName: "origin", RefSpecs: specs, Depth: 1, Tags: git.NoTags, Progress: progress, Force: true})
		if err == nil || errors.Is(err, git.NoErrAlreadyUpToDate) {
			return nil
		}
		if isNetworkError(err) {
			return networkError(url, err)
		}
		specs = []config.RefSpec{config.RefSpec("+refs/heads/" + ref + ":refs/remotes/origin/" + ref)}
		err = o.Repo.FetchContext(ctx, &git.FetchOptions{RemoteName: "origin", RefSpecs: specs, Depth: 1, Tags: git.NoTags, Progress: progress, Force: true})
		if err == nil || errors.Is(err, git.NoErrAlreadyUpToDate) {
			return nil
		}
		if isNetworkError(err) {
			return networkError(url, err)
		}
	}
	// Full fetch: every branch and tag. It also turns an earlier shallow
	// clone into one that holds the requested commit.
	specs = []config.RefSpec{
		"+refs/heads/*:refs/remotes/origin/*",
		"+refs/tags/*:refs/tags/*",
	}
	err := o.Repo.FetchContext(ctx, &git.FetchOptions{RemoteName: "origin", RefSpecs: specs, Tags: git.AllTags, Progress: progress, Force: true})
	if err == nil || errors.Is(err, git.NoErrAlreadyUpToDate) {
		if ref == "HEAD" {
			return o.setHead()
		}
		return nil
	}
	if errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return fmt.Errorf("fetch %s: the remote repository is empty; check the URL", url)
	}
	if isNetworkError(err) {
		return networkError(url, err)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return fmt.Errorf("fetch %s: timed out; the cache is kept and the next run resumes (raise --timeout or pass --repo PATH)", url)
	}
	return fmt.Errorf("fetch %s: %s; check the URL or pass --repo PATH to a local copy", url, oneLine(err.Error()))
}

// setHead points the cache's HEAD at the remote's default branch.
func (o *Opened) setHead() error {
	rem, err := o.Repo.Remote("origin")
	if err != nil {
		return err
	}
	refs, err := rem.List(&git.ListOptions{})
	if err != nil {
		return nil
	}
	for _, r := range refs {
		if r.Name() == plumbing.HEAD {
			if r.Type() == plumbing.SymbolicReference {
				target := plumbing.NewRemoteReferenceName("origin", r.Target().Short())
				return o.Repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, target))
			}
			return o.Repo.Storer.SetReference(plumbing.NewHashReference(plumbing.HEAD, r.Hash()))
		}
	}
	return nil
}

func isNetworkError(err error) bool {
	var ne net.Error
	var oe *net.OpError
	var de *net.DNSError
	if errors.As(err, &ne) || errors.As(err, &oe) || errors.As(err, &de) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"dial tcp", "no such host", "connection refused", "network is unreachable", "i/o timeout", "unexpected EOF", "connection reset"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return errors.Is(err, io.ErrUnexpectedEOF)
}

func networkError(url string, err error) error {
	return fmt.Errorf("fetch %s: cannot reach the server (%s); to work offline pass --repo PATH to a local copy", url, oneLine(lastCause(err)))
}

func lastCause(err error) string {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err.Error()
		}
		err = u
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
