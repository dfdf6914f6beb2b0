package source

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// Tags lists the tag names of the source, sorted. A local repository's
// tags are read in place. A fetched source asks the server, so a release
// published since the last run is seen (each tag is fetched later, when
// Ensure or At asks for it); when the server cannot be reached, the tags
// already in the cache are used and Progress says so. A plain directory
// has no tags.
func (o *Opened) Tags(ctx context.Context) ([]string, error) {
	if o.Kind == KindDir {
		return nil, &Error{Problem: o.Dir + " is a plain directory, which has no tags", Remedy: UseGitRepository, Err: ErrPlainDirectory}
	}
	if o.cache != nil {
		names, err := o.remoteTags(ctx)
		if err == nil {
			return names, nil
		}
		local, lerr := localTags(o.Repo)
		if lerr != nil || len(local) == 0 {
			return nil, err
		}
		if o.opts.Progress != nil {
			fmt.Fprintf(o.opts.Progress, "keyfindings: %v; using the %d tags in the cache\n", err, len(local))
		}
		return local, nil
	}
	return localTags(o.Repo)
}

func localTags(repo *git.Repository) ([]string, error) {
	iter, err := repo.Tags()
	if err != nil {
		return nil, fmt.Errorf("list tags: %w", err)
	}
	var names []string
	err = iter.ForEach(func(r *plumbing.Reference) error {
		names = append(names, r.Name().Short())
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list tags: %w", err)
	}
	sort.Strings(names)
	return names, nil
}

func (o *Opened) remoteTags(ctx context.Context) ([]string, error) {
	if o.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.opts.Timeout)
		defer cancel()
	}
	rem, err := o.Repo.Remote("origin")
	if err != nil {
		return nil, fmt.Errorf("list tags of %s: %w", o.url, err)
	}
	refs, err := rem.ListContext(ctx, &git.ListOptions{})
	if err != nil {
		err = o.fetchError(ctx, o.url, err)
		if errors.Is(err, errTryFull) {
			err = fmt.Errorf("list tags of %s: %s", o.url, strings.TrimPrefix(err.Error(), errTryFull.Error()+": "))
		}
		return nil, err
	}
	seen := map[string]bool{}
	var names []string
	for _, r := range refs {
		if !r.Name().IsTag() {
			continue
		}
		name := r.Name().Short()
		if strings.HasSuffix(name, "^{}") {
			continue // a peeled entry of an annotated tag
		}
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, nil
}
