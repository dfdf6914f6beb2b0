package source

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
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/keyfindings/keyfindings/mdtext"
)

// DefaultCacheDir is where fetched repositories live unless --cache or
// KEYFINDINGS_CACHE says otherwise.
func DefaultCacheDir() (string, error) {
	if d := os.Getenv("KEYFINDINGS_CACHE"); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", &Error{Problem: fmt.Sprintf("no user cache directory (%v)", err), Remedy: OtherCacheDir, Err: err}
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
		return nil, &Error{Problem: "create cache directory: " + err.Error(), Remedy: OtherCacheDir, Err: err}
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
			return nil, &Error{Problem: fmt.Sprintf("cache entry %s is locked by another keyfindings run for over %s; wait for it", dir, lockWait), Remedy: OtherCacheDir}
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

// urlCache is a repository fetched from a URL into the cache directory,
// held under the entry's lock until Close. It is read as a gitRepo once
// what a ref needs is fetched. The pin is a urlCache whose default ref is
// the pin's tag, pinned to the pin's commit.
type urlCache struct {
	gitRepo
	url      string
	entry    *cacheEntry
	fetched  map[string]bool
	progress io.Writer
	timeout  time.Duration
	// heldPin is the commit the default ref was pinned to at Open (the
	// pin's): held with its tag, that ref needs no network.
	heldPin string
}

// openURL opens (creating when needed) the cache entry for url, holds its
// lock until Close, and fetches what the requested ref (else defaultRef)
// needs. pinned, when not "", is the commit defaultRef is pinned to: the
// pin's, which once held needs no network.
func openURL(ctx context.Context, opts Options, url, web, defaultRef, pinned string) (Source, error) {
	useBoundedHTTP()
	root := opts.CacheDir
	if root == "" {
		var err error
		if root, err = DefaultCacheDir(); err != nil {
			return nil, err
		}
	}
	entry, err := lockCache(cachePath(root, url))
	if err != nil {
		return nil, err
	}
	repo, err := openCacheRepo(entry.dir, url)
	if err != nil {
		entry.unlock()
		return nil, err
	}
	c := &urlCache{
		gitRepo:  gitRepo{repo: repo, defaultRef: defaultRef, pinnedCommit: pinned, webURL: web},
		url:      url,
		entry:    entry,
		fetched:  map[string]bool{},
		progress: opts.Progress,
		timeout:  opts.Timeout,
		heldPin:  pinned,
	}
	if err := c.ensure(ctx, c.refOrDefault(opts.Ref)); err != nil {
		entry.unlock()
		return nil, err
	}
	c.defaultToPin(opts.Pin)
	return c, nil
}

// At resolves ref, or the default ref, fetching it first when the cache
// lacks it (ctx cancels the fetch).
func (c *urlCache) At(ctx context.Context, ref string) (*Resolved, error) {
	ref = c.refOrDefault(ref)
	if err := c.Ensure(ctx, ref); err != nil {
		return nil, err
	}
	return c.resolve(ref)
}

// Ensure fetches ref into the cache when it lacks it, once per run.
func (c *urlCache) Ensure(ctx context.Context, ref string) error {
	if ref == "" {
		return nil
	}
	return c.ensure(ctx, ref)
}

// Close releases the repository and the cache entry's lock.
func (c *urlCache) Close() error {
	c.gitRepo.Close()
	return c.entry.unlock()
}

// ensure fetches ref into the cache entry once per run. A damaged entry is
// fetched again from scratch; a ref the cache already holds is used as it
// is when the server cannot be reached.
func (c *urlCache) ensure(ctx context.Context, ref string) error {
	if c.fetched[ref] {
		return nil
	}
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	err := c.fetch(ctx, ref)
	if err == nil && !usable(c.repo, ref) {
		if c.progress != nil {
			fmt.Fprintf(c.progress, "keyfindings: cache entry %s is damaged; fetching it again\n", c.entry.dir)
		}
		if err = c.resetEntry(); err == nil {
			err = c.fetch(ctx, ref)
		}
		if err == nil && !usable(c.repo, ref) {
			err = fmt.Errorf("fetch %s: %s is unreadable even after a fresh fetch; check the server's repository", c.url, ref)
		}
	}
	if err != nil {
		if _, rerr := ResolveCommit(c.repo, ref); rerr == nil && usable(c.repo, ref) {
			if c.progress != nil {
				fmt.Fprintf(c.progress, "keyfindings: %v; using the cached copy of %s\n", err, ref)
			}
			c.fetched[ref] = true
			return nil
		}
		return err
	}
	c.fetched[ref] = true
	return nil
}

// usable reports whether ref resolves in repo to a commit whose trees can
// all be read. An unknown ref counts as usable: resolving it later reports
// it as what it is.
func usable(repo *git.Repository, ref string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	c, err := ResolveCommit(repo, ref)
	if err != nil {
		// A name the entry holds whose commit it lacks is damage (an
		// earlier fetch stopped half-way); a name it does not hold is
		// reported later as what it is.
		return !isRefName(repo, ref) && strings.Contains(err.Error(), "unknown revision")
	}
	tree, err := c.Tree()
	if err != nil {
		return false
	}
	return completeTree(tree)
}

// completeTree reports whether every tree below tree can be read.
// Completeness is about objects, not names: a name go-git would not check
// out (a newline in it) is no damage.
func completeTree(tree *object.Tree) bool {
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	w.SkipPathValidation()
	for {
		if _, _, err := w.Next(); err != nil {
			return err == io.EOF
		}
	}
}

// openCacheRepo opens the bare repository at dir, re-creating it when it is
// missing or unreadable (an interrupted first fetch leaves such a thing).
func openCacheRepo(dir, url string) (*git.Repository, error) {
	repo, err := git.PlainOpen(dir)
	if err == nil {
		if _, err := repo.Remote("origin"); err == nil {
			return withSmallCache(repo)
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
// already present needs no network. Otherwise it fetches the one ref (a
// tag or a branch) — shallow while the entry is new or shallow, in full
// once it holds whole history — and, when that is not enough, every
// branch and tag in full. go-git cannot deepen a shallow entry (a full
// fetch into one still lacks the commits behind its shallow boundary), so
// a shallow entry is started afresh before a full fetch.
func (c *urlCache) fetch(ctx context.Context, ref string) error {
	if isHex(ref) && len(ref) == 40 {
		if _, err := c.repo.CommitObject(plumbing.NewHash(ref)); err == nil {
			return nil
		}
	}
	if c.heldPin != "" && ref == c.defaultRef {
		if _, err := c.repo.CommitObject(plumbing.NewHash(c.heldPin)); err == nil {
			if _, err := c.repo.Reference(plumbing.NewTagReferenceName(ref), true); err == nil {
				return nil
			}
		}
	}
	try := func(specs []config.RefSpec, depth int) (bool, error) {
		tags := git.NoTags
		if depth == 0 {
			tags = git.AllTags
		}
		err := c.repo.FetchContext(ctx, &git.FetchOptions{RemoteName: "origin", RefSpecs: specs, Depth: depth, Tags: tags, Progress: c.progress, Force: true})
		if err == nil || errors.Is(err, git.NoErrAlreadyUpToDate) {
			return true, nil
		}
		return false, c.fetchError(ctx, err)
	}
	shallow := isShallow(c.repo)
	if !isHex(ref) && ref != "HEAD" {
		// One tag, or one branch: all a build of it needs.
		depth := 0
		if shallow || !hasRefs(c.repo) {
			depth = 1
		}
		for _, spec := range []config.RefSpec{
			config.RefSpec("+refs/tags/" + ref + ":refs/tags/" + ref),
			config.RefSpec("+refs/heads/" + ref + ":refs/heads/" + ref),
		} {
			ok, err := try([]config.RefSpec{spec}, depth)
			if ok {
				return nil
			}
			if !errors.Is(err, errTryFull) {
				return err
			}
		}
	}
	if shallow {
		if err := c.resetEntry(); err != nil {
			return err
		}
	}
	// Full fetch: every branch and tag, branches under their own names so
	// that --ref <branch> resolves as in the upstream repository.
	ok, err := try([]config.RefSpec{"+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"}, 0)
	if ok {
		return c.setHead(ctx)
	}
	if errors.Is(err, errTryFull) {
		return &Error{Problem: fmt.Sprintf("fetch %s: %s", c.url, strings.TrimPrefix(err.Error(), errTryFull.Error()+": ")), Remedy: CheckURL}
	}
	return err
}

// isShallow reports whether repo holds only part of its history.
func isShallow(repo *git.Repository) bool {
	s, err := repo.Storer.Shallow()
	return err == nil && len(s) > 0
}

// hasRefs reports whether repo holds any reference besides HEAD.
func hasRefs(repo *git.Repository) bool {
	iter, err := repo.References()
	if err != nil {
		return false
	}
	defer iter.Close()
	found := errors.New("found")
	return iter.ForEach(func(r *plumbing.Reference) error {
		if r.Name() != plumbing.HEAD {
			return found
		}
		return nil
	}) == found
}

// resetEntry empties the cache entry (keeping its lock) for a fetch from
// scratch.
func (c *urlCache) resetEntry() error {
	if err := os.RemoveAll(c.entry.dir); err != nil {
		return fmt.Errorf("reset cache entry %s: %w", c.entry.dir, err)
	}
	repo, err := openCacheRepo(c.entry.dir, c.url)
	if err != nil {
		return err
	}
	c.repo = repo
	c.fetched = map[string]bool{}
	return nil
}

// errTryFull marks a fetch error after which a wider fetch may succeed
// (the server lacks that ref, or refuses shallow fetches).
var errTryFull = errors.New("try a full fetch")

// fetchError classifies a fetch error into one actionable line.
func (c *urlCache) fetchError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return &Error{Problem: fmt.Sprintf("fetch %s: no answer within %s; the cache is kept and the next run resumes", c.url, c.timeout), Remedy: MoreTime, Err: err}
	case errors.Is(err, transport.ErrEmptyRemoteRepository):
		return fmt.Errorf("fetch %s: the remote repository is empty; check the URL", c.url)
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return fmt.Errorf("fetch %s: repository not found; check the URL", c.url)
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed):
		return &Error{Problem: fmt.Sprintf("fetch %s: the server asks for credentials", c.url), Remedy: UsePublicURL, Err: err}
	case isNetworkError(err):
		return networkError(c.url, err)
	}
	return fmt.Errorf("%w: %s", errTryFull, mdtext.OneLine(err.Error()))
}

// setHead points the cache's HEAD at the remote's default branch.
func (c *urlCache) setHead(ctx context.Context) error {
	rem, err := c.repo.Remote("origin")
	if err != nil {
		return err
	}
	refs, err := rem.ListContext(ctx, &git.ListOptions{})
	if err != nil {
		return nil
	}
	for _, r := range refs {
		if r.Name() == plumbing.HEAD {
			if r.Type() == plumbing.SymbolicReference {
				target := plumbing.NewBranchReferenceName(r.Target().Short())
				return c.repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, target))
			}
			return c.repo.Storer.SetReference(plumbing.NewHashReference(plumbing.HEAD, r.Hash()))
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
	if errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "unexpected EOF") || strings.Contains(err.Error(), "connection reset") {
		return &Error{Problem: fmt.Sprintf("fetch %s: the transfer broke off (%s); the cache is kept", url, mdtext.OneLine(lastCause(err))), Remedy: RunAgain, Err: err}
	}
	return &Error{Problem: fmt.Sprintf("fetch %s: cannot reach the server (%s)", url, mdtext.OneLine(lastCause(err))), Remedy: WorkOffline, Err: err}
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
