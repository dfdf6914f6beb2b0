package source

import (
	"errors"
	"fmt"
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
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return nil, time.Time{}, ErrNotFound
		}
		return nil, time.Time{}, fmt.Errorf("read commit %s: %w", commit, err)
	}
	out := make([]string, len(c.ParentHashes))
	for i, p := range c.ParentHashes {
		out[i] = p.String()
	}
	return out, c.Committer.When, nil
}
