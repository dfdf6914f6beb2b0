package source

import (
	"context"
	"fmt"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/keyfindings/keyfindings/findings"
)

// gitRepo is a local git repository (bare, with a work tree, or a linked
// worktree) read in place: it has what it has, and nothing is fetched.
// urlCache builds on it.
type gitRepo struct {
	repo *git.Repository
	// defaultRef is the ref At("") resolves.
	defaultRef string
	// pinnedCommit is the commit defaultRef must name, "" if not pinned.
	pinnedCommit string
	webURL       string
	// hist is the History of repo its snapshots share, made on first use.
	hist *packHistory
}

// defaultToPin makes the pin's tag the default ref of a repository that
// holds it. A clone's HEAD may be a commit upstream never had (a fork's
// merge), while permalinks point at upstream; the pinned tag is what the
// records and their links are meant to describe. As for the pin itself, a
// tag that names another commit than the pin's is an error at At.
func (g *gitRepo) defaultToPin(pin findings.Pin) {
	if pin.Ref == "" {
		return
	}
	if _, err := g.repo.Reference(plumbing.NewTagReferenceName(pin.Ref), false); err != nil {
		return
	}
	g.defaultRef = pin.Ref
	g.pinnedCommit = pin.Commit
}

// At resolves ref, or the default ref, in the repository as it is.
func (g *gitRepo) At(_ context.Context, ref string) (*Resolved, error) {
	return g.resolve(g.refOrDefault(ref))
}

func (g *gitRepo) refOrDefault(ref string) string {
	if ref == "" {
		return g.defaultRef
	}
	return ref
}

// resolve returns the snapshot ref names, checking a pinned default ref
// against its commit.
func (g *gitRepo) resolve(ref string) (*Resolved, error) {
	c, err := ResolveCommit(g.repo, ref)
	if err != nil {
		return nil, err
	}
	if ref == g.defaultRef && g.pinnedCommit != "" && c.Hash.String() != g.pinnedCommit {
		return nil, fmt.Errorf("pinned %s resolves to %s, not the pinned commit %s: the tag moved; check upstream and update findings/pin.yaml", ref, c.Hash, g.pinnedCommit)
	}
	snap, err := NewGitSnapshot(g.repo, c)
	if err != nil {
		return nil, err
	}
	snap.(*gitSnapshot).hist = g.history()
	return &Resolved{Snapshot: snap, Ref: ref, Commit: c.Hash.String(), WebURL: g.webURL}, nil
}

// history returns the History the repository's snapshots share: made
// again when a URL cache has replaced the repository.
func (g *gitRepo) history() *packHistory {
	if g.hist != nil && g.hist.repo != g.repo {
		g.hist.close()
		g.hist = nil
	}
	if g.hist == nil {
		g.hist = newPackHistory(g.repo)
	}
	return g.hist
}

// Ensure does nothing: a local repository is never fetched into.
func (g *gitRepo) Ensure(context.Context, string) error { return nil }

// Tags lists the repository's tags, read in place.
func (g *gitRepo) Tags(context.Context) ([]string, error) { return localTags(g.repo) }

func (g *gitRepo) WebURL() string { return g.webURL }

func (g *gitRepo) Repository() (*git.Repository, error) { return g.repo, nil }

// Close releases the pack files the repository keeps open.
func (g *gitRepo) Close() error {
	if g.hist != nil {
		g.hist.close()
		g.hist = nil
	}
	switch st := g.repo.Storer.(type) {
	case *packStorage:
		st.Close()
	case *filesystem.Storage:
		st.Close()
	}
	return nil
}
