package extract

import "context"

// Ensure makes ref (a tag, branch or commit) available in a fetched source
// (a URL or the pin), fetching it into the cache when it is not there yet.
// Open fetches only the ref it was given; commands that read several refs
// (diff, verify) call Ensure for the others. Local repositories and plain
// directories need nothing.
func (o *Opened) Ensure(ctx context.Context, ref string) error {
	switch o.Kind {
	case KindURL:
		return o.fetch(ctx, o.opts.Repo, ref)
	case KindPin:
		return o.fetch(ctx, o.opts.Pin.Repo, ref)
	}
	return nil
}
