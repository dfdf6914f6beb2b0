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

// localTags lists the tags repo holds, sorted.
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

// Tags lists the tags on the server, so that a release published since
// the last run is seen (each tag is fetched later, when Ensure or At asks
// for it). When the server cannot be reached, the tags already in the
// cache are used and progress says so.
func (c *urlCache) Tags(ctx context.Context) ([]string, error) {
	names, err := c.remoteTags(ctx)
	if err == nil {
		return names, nil
	}
	local, lerr := localTags(c.repo)
	if lerr != nil || len(local) == 0 {
		return nil, err
	}
	if c.progress != nil {
		fmt.Fprintf(c.progress, "keyfindings: %v; using the %d tags in the cache\n", err, len(local))
	}
	return local, nil
}

// remoteTags asks the server for its tags.
func (c *urlCache) remoteTags(ctx context.Context) ([]string, error) {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	rem, err := c.repo.Remote("origin")
	if err != nil {
		return nil, fmt.Errorf("list tags of %s: %w", c.url, err)
	}
	refs, err := rem.ListContext(ctx, &git.ListOptions{})
	if err != nil {
		err = c.fetchError(ctx, err)
		if errors.Is(err, errTryFull) {
			err = fmt.Errorf("list tags of %s: %s", c.url, strings.TrimPrefix(err.Error(), errTryFull.Error()+": "))
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
