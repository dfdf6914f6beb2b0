package source

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// History is the commit graph behind a snapshot, for questions of
// ancestry (is this commit before the release that introduced a finding?).
// Implementations must be comparable: the Extractor keeps what it learnt
// of a history under it.
type History interface {
	// TagCommit returns the commit a tag names (annotated tags peeled),
	// "" when the repository has no such tag or lacks its commit.
	TagCommit(tag string) (string, error)
	// Parents returns a commit's parents and its committer time,
	// ErrNotFound when the commit is not in this copy of the repository
	// (beyond a shallow fetch).
	Parents(commit string) ([]string, time.Time, error)
}

// gitHistory is the History of a go-git repository.
type gitHistory struct {
	repo *git.Repository
}

// NewGitHistory returns the History of repo, the one its snapshots
// (NewGitSnapshot) give.
func NewGitHistory(repo *git.Repository) History { return gitHistory{repo: repo} }

func (h gitHistory) TagCommit(tag string) (string, error) {
	if _, err := h.repo.Reference(plumbing.NewTagReferenceName(tag), false); err != nil {
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return "", nil
		}
		return "", fmt.Errorf("look up tag %s: %w", tag, err)
	}
	c, err := ResolveCommit(h.repo, "refs/tags/"+tag)
	if err != nil {
		// A tag whose commit is not in this copy: ancestry cannot tell.
		return "", nil
	}
	return c.Hash.String(), nil
}

func (h gitHistory) Parents(commit string) ([]string, time.Time, error) {
	c, err := h.repo.CommitObject(plumbing.NewHash(commit))
	if err != nil {
		return nil, time.Time{}, commitError(commit, err)
	}
	return hexes(c.ParentHashes), c.Committer.When, nil
}

// commitError is an error reading commit: ErrNotFound when the copy
// lacks it.
func commitError(commit string, err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return ErrNotFound
	}
	return fmt.Errorf("read commit %s: %w", commit, err)
}

// hexes spells hashes in hex.
func hexes(hs []plumbing.Hash) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.String()
	}
	return out
}

// packHistory is the History of a repository whose commits are read
// through Objects: a commit's parents and time from its header, without
// decoding the rest of it through go-git. Deciding whether a commit comes
// before a release reads every commit between them (thousands at an old
// release), so this halves the cost of a first build's since/until
// answers. One serves every snapshot a source resolves, so the answers an
// Extractor keeps under it are shared.
type packHistory struct {
	gitHistory
	mu   sync.Mutex
	objs *Objects
}

// NewPackHistory returns the History of repo that reads commit headers
// from its pack files, as a repository source's snapshots share one, and
// a function that closes the files it holds open.
func NewPackHistory(repo *git.Repository) (History, func() error) {
	h := newPackHistory(repo)
	return h, h.close
}

func newPackHistory(repo *git.Repository) *packHistory {
	return &packHistory{gitHistory: gitHistory{repo: repo}, objs: NewObjects(repo)}
}

func (h *packHistory) Parents(commit string) ([]string, time.Time, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch, err := h.objs.ReadCommitHeader(plumbing.NewHash(commit))
	if err != nil {
		return nil, time.Time{}, commitError(commit, err)
	}
	return hexes(ch.Parents), ch.Committed, nil
}

func (h *packHistory) close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.objs.Close()
}
