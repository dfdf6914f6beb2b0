package source

import (
	"context"
	"fmt"

	"github.com/go-git/go-git/v5"
)

// plainDir is a plain directory of files, read as it is: one snapshot
// with no commit, and none of what only a git repository has (refs,
// tags, history).
type plainDir struct {
	root   string
	webURL string
}

// At gives the directory's one snapshot; any ref is an error.
func (d *plainDir) At(_ context.Context, ref string) (*Resolved, error) {
	if ref != "" {
		return nil, d.noRefs(ref)
	}
	return &Resolved{Snapshot: NewDirSnapshot(d.root)}, nil
}

// Ensure has nothing to make available: any ref is the error At gives.
func (d *plainDir) Ensure(_ context.Context, ref string) error {
	if ref != "" {
		return d.noRefs(ref)
	}
	return nil
}

// noRefs is the error for a ref asked of a plain directory.
func (d *plainDir) noRefs(ref string) error {
	return &Error{Problem: fmt.Sprintf("ref %s: %s is a plain directory, not a git repository", ref, d.root), Remedy: UseGitRepository, Err: ErrPlainDirectory}
}

// Tags is an error: a plain directory has no tags.
func (d *plainDir) Tags(context.Context) ([]string, error) {
	return nil, &Error{Problem: d.root + " is a plain directory, which has no tags", Remedy: UseGitRepository, Err: ErrPlainDirectory}
}

func (d *plainDir) WebURL() string { return d.webURL }

// Repository is an error: a plain directory is no git repository.
func (d *plainDir) Repository() (*git.Repository, error) {
	return nil, &Error{Problem: d.root + " is a plain directory", Remedy: UseGitRepository, Err: ErrPlainDirectory}
}

func (d *plainDir) Close() error { return nil }
