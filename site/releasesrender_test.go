package site

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/route"
)

// renderReleases returns the files of a releases directory. rels are the
// releases oldest first. Each release's site is under <tag>/ as
// RenderWith writes it, with links to the releases index and to its
// neighbours, and, where a record cites the same lines with the same
// bytes as in the release before, a link to the release that first showed
// its excerpt instead of the excerpt; plus <tag>/changes.html (what
// changed since the release before it, for all but the oldest).
// index.html lists the minor versions and the newest one's releases,
// newest first, and an overview of the findings; <minor>.html lists the
// releases of a minor version; timeline/<id>.html shows a finding across
// the releases; style.css serves the top-level pages. It is what a
// ReleasesDir holds after putting rels in order, but holds every
// release's files at once: for tests and small sets.
func renderReleases(rels []Release, opts Options) (Files, error) {
	if len(rels) == 0 {
		return nil, errors.New("no releases to render")
	}
	seen := map[string]bool{}
	tags := make([]string, len(rels))
	for i, r := range rels {
		if err := CheckReleaseTag(r.Tag); err != nil {
			return nil, err
		}
		if seen[r.Tag] {
			return nil, fmt.Errorf("release %s listed twice", r.Tag)
		}
		seen[r.Tag] = true
		tags[i] = r.Tag
	}
	d, err := newReleasesDir("", func(a, b string) int { return slices.Index(tags, a) - slices.Index(tags, b) }, opts)
	if err != nil {
		return nil, err
	}
	out := Files{}
	var prevDoc *findings.Document
	for _, rel := range rels {
		prev, next := neighbours(tags, rel.Tag)
		recs := summarize(rel.Document)
		o := opts
		o.nav = releaseNav(rel.Tag, prev, next)
		if len(d.rels) > 0 {
			o.sameAs = linkSameAs(d.rels[len(d.rels)-1], recs)
		}
		rs, err := renderRelease(rel, o)
		if err != nil {
			return nil, err
		}
		files, doc := rs.files, rs.doc
		if prevDoc != nil {
			if files[changesFile], err = renderChanges(d.set, rel.Tag, prev, doc, prevDoc, compareEvaluated(prevDoc, doc, route.Totals(prevDoc, d.routes), route.Totals(doc, d.routes), d.routes), o.nav); err != nil {
				return nil, err
			}
		}
		for name, data := range files {
			out[rel.Tag+"/"+name] = data
		}
		e := ManifestRelease{Tag: rel.Tag, ReleasesKey: ReleasesKey{Repo: doc.Source.Repo}, Version: deref(doc.Source.Version), CommittedAt: deref(doc.Source.CommittedAt), Routes: routeTotals(doc, d.routes), Records: recs}
		e.Commit = deref(doc.Source.Commit)
		d.rels = append(d.rels, &dirRelease{entry: e})
		prevDoc = doc
	}
	top, err := d.renderTop(d.rels)
	if err != nil {
		return nil, err
	}
	maps.Copy(out, top)
	return out, nil
}
