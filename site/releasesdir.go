package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/route"
)

// ReleasesDir is a releases directory updated one release at a time. Each
// release is written into place whole as soon as it is ready (its
// directory renamed in), then the pages that depend on it and, last, the
// manifest; so a run that stops midway keeps every release it finished,
// and the index and manifest list exactly the releases that are there.
// Releases a run does not put stay as they are until removed.
type ReleasesDir struct {
	dir string
	// fresh is set while dir is not a releases directory yet (absent,
	// empty, or of another kind replaced with force): the first Put
	// replaces it whole.
	fresh bool
	opts  Options
	set   *templateSet
	style []byte
	order func(a, b string) int
	// routes is the routes data the totals are computed with.
	routes *route.Config
	// manifest is the manifest as read, for Reuse.
	manifest *ReleasesManifest
	// rels are the releases in the directory, oldest first by order.
	rels []*dirRelease
	// stale is set when the top-level files are to be rendered again
	// with the current templates (see Finish).
	stale bool
}

// dirRelease is one release of a ReleasesDir: its manifest entry and
// what the directory's pages are rendered from.
type dirRelease struct {
	entry ManifestRelease
	doc   *findings.Document
	// intact is set when doc is what entry says was written: its
	// findings.json has the hash the manifest records.
	intact bool
	// diff compares it with the release before; nil for the oldest.
	diff *diff.Diff
}

// OpenReleasesDir opens dir to write releases into. order compares two
// tags (negative when the first is the older release). dir must be
// absent, empty or a releases directory; a non-empty directory of
// another kind, or not written by keyfindings, is refused unless force is
// set, and is then replaced whole by the first Put. The releases the
// manifest lists are kept; notes say which could not be read back (they
// are left on disk but out of the pages and the manifest).
func OpenReleasesDir(dir string, force bool, order func(a, b string) int, opts Options) (d *ReleasesDir, notes []string, err error) {
	dir = filepath.Clean(dir)
	kind, err := checkTarget(dir, KindReleases, force)
	if err != nil {
		return nil, nil, err
	}
	set, err := releasesTemplates(opts)
	if err != nil {
		return nil, nil, err
	}
	style, err := releasesStyle(set)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := routesConfig(opts)
	if err != nil {
		return nil, nil, err
	}
	d = &ReleasesDir{dir: dir, fresh: kind != KindReleases, opts: opts, set: set, style: style, order: order, routes: cfg}
	if d.fresh {
		return d, nil, nil
	}
	m, note, err := ReadReleasesManifest(dir)
	if err != nil {
		return nil, nil, err
	}
	if note != "" {
		notes = append(notes, note)
	}
	d.manifest = m
	if m == nil {
		return d, notes, nil
	}
	for _, e := range m.Releases {
		doc, sum, err := d.readDoc(e.Tag)
		if err != nil {
			notes = append(notes, fmt.Sprintf("release %s is listed in %s but cannot be read back (%v); left out of the index", e.Tag, ReleasesManifestFile, err))
			continue
		}
		if e.Routes == nil {
			// A manifest of an earlier keyfindings, without totals.
			e.Routes = routeTotals(doc, d.routes)
		}
		d.rels = d.insert(&dirRelease{entry: e, doc: doc, intact: sum == e.FindingsSHA256})
	}
	for i := range d.rels {
		d.link(d.rels, i)
	}
	return d, notes, nil
}

// readDoc reads back the findings.json of the release tag, and returns
// its SHA-256.
func (d *ReleasesDir) readDoc(tag string) (*findings.Document, string, error) {
	if err := CheckReleaseTag(tag); err != nil {
		return nil, "", err
	}
	if slices.ContainsFunc(d.rels, func(r *dirRelease) bool { return r.entry.Tag == tag }) {
		return nil, "", errors.New("listed twice")
	}
	data, err := os.ReadFile(filepath.Join(d.dir, tag, "findings.json"))
	if err != nil {
		return nil, "", err
	}
	doc, err := findings.DecodeDocument(data, tag+"/findings.json")
	return doc, sha256Hex(data), err
}

// Tags returns the tags of the releases in the directory, oldest first.
func (d *ReleasesDir) Tags() []string {
	tags := make([]string, len(d.rels))
	for i, r := range d.rels {
		tags[i] = r.entry.Tag
	}
	return tags
}

// Reuse returns the release tag as the manifest read at open lists it,
// if it was built from commit with key and is intact (see
// ReleasesManifest.Reuse); otherwise nil and the reason.
func (d *ReleasesDir) Reuse(key ReleasesKey, tag, commit string) (*Release, string) {
	return d.manifest.Reuse(d.dir, key, tag, commit)
}

// Put writes rel, built from commit with key, into the directory: its
// site under <tag>/ (replacing an earlier one), its changes page and the
// next release's, the index and the manifest. Everything is rendered
// before anything is written; on error the directory holds either the
// release or not, and pages that agree with what it holds, apart from
// the next release's changes page if the write of it fails. A release
// the directory holds unchanged (same commit, key and records) has only
// its own directory rewritten; Finish renders the top-level files then.
func (d *ReleasesDir) Put(rel Release, commit string, key ReleasesKey) error {
	if err := CheckReleaseTag(rel.Tag); err != nil {
		return err
	}
	files, doc, err := renderRelease(rel, d.opts)
	if err != nil {
		return err
	}
	entry := ManifestRelease{Tag: rel.Tag, Commit: commit, ReleasesKey: key, FindingsSHA256: sha256Hex(files["findings.json"]), Routes: routeTotals(doc, d.routes)}
	if !d.fresh && d.unchanged(entry) {
		return d.rewrite(rel.Tag, files)
	}
	rels := d.insert(&dirRelease{entry: entry, doc: doc, intact: true})
	i := slices.IndexFunc(rels, func(r *dirRelease) bool { return r.entry.Tag == rel.Tag })
	d.link(rels, i)
	if i > 0 {
		if files[changesFile], err = d.changes(rels, i); err != nil {
			return err
		}
	}
	next, err := d.relink(rels, i+1)
	if err != nil {
		return err
	}
	top, err := d.top(rels)
	if err != nil {
		return err
	}
	if d.fresh {
		// The first release replaces the directory whole: what was there
		// (nothing, or what force allowed to replace) goes only now.
		all := Files{}
		for name, data := range files {
			all[rel.Tag+"/"+name] = data
		}
		for name, data := range top {
			all[name] = data
		}
		if err := replaceDir(d.dir, all, true); err != nil {
			return err
		}
		d.fresh, d.rels = false, rels
		return nil
	}
	if err := replaceDir(filepath.Join(d.dir, rel.Tag), files, false); err != nil {
		return err
	}
	d.rels = rels
	if err := next(); err != nil {
		return err
	}
	return d.writeTop(top)
}

// unchanged reports whether the directory holds entry's release as it is:
// same tag, commit, key and findings.json, intact. Its records then are
// those already there, and so are the pages of the other releases and,
// but for a change of templates, the top-level files.
func (d *ReleasesDir) unchanged(entry ManifestRelease) bool {
	return slices.ContainsFunc(d.rels, func(r *dirRelease) bool { return r.intact && r.entry.sameBuild(entry) })
}

// rewrite writes the site of a release that is unchanged, with its
// changes page, as the current templates render it; the top-level files
// are rendered once more by Finish.
func (d *ReleasesDir) rewrite(tag string, files Files) error {
	i := slices.IndexFunc(d.rels, func(r *dirRelease) bool { return r.entry.Tag == tag })
	if i > 0 {
		page, err := d.changes(d.rels, i)
		if err != nil {
			return err
		}
		files[changesFile] = page
	}
	// The top-level files are rendered again by Finish (the templates may
	// have changed) and written only where their bytes differ.
	d.stale = true
	dir := filepath.Join(d.dir, tag)
	if holds(dir, files) {
		// Nothing to write: a re-run with nothing new leaves the
		// directory as it is, file for file.
		return nil
	}
	return replaceDir(dir, files, false)
}

// holds reports whether dir holds exactly files: the same names (no more,
// no fewer) with the same bytes.
func holds(dir string, files Files) bool {
	n := 0
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		want, ok := files[filepath.ToSlash(rel)]
		if !ok {
			return errDiffers
		}
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, want) {
			return errDiffers
		}
		n++
		return nil
	})
	return err == nil && n == len(files)
}

var errDiffers = errors.New("differs")

// Finish writes the top-level files if a Put of an unchanged release
// left them as an earlier run (perhaps with other templates) wrote them.
func (d *ReleasesDir) Finish() error {
	if !d.stale {
		return nil
	}
	top, err := d.top(d.rels)
	if err != nil {
		return err
	}
	if err := d.writeTop(top); err != nil {
		return err
	}
	d.stale = false
	return nil
}

// Remove takes the release tag out of the directory: out of the index
// and the manifest first, then its files. The release after it gets a
// changes page against the one before it.
func (d *ReleasesDir) Remove(tag string) error {
	i := slices.IndexFunc(d.rels, func(r *dirRelease) bool { return r.entry.Tag == tag })
	if i < 0 {
		return fmt.Errorf("release %s is not in %s", tag, d.dir)
	}
	rels := slices.Delete(slices.Clone(d.rels), i, i+1)
	next, err := d.relink(rels, i)
	if err != nil {
		return err
	}
	top, err := d.top(rels)
	if err != nil {
		return err
	}
	if err := next(); err != nil {
		return err
	}
	if err := d.writeTop(top); err != nil {
		return err
	}
	d.rels = rels
	if err := os.RemoveAll(filepath.Join(d.dir, tag)); err != nil {
		return fmt.Errorf("remove release %s: %w", tag, err)
	}
	return nil
}

// insert returns the releases with r in its place by order, replacing a
// release of the same tag.
func (d *ReleasesDir) insert(r *dirRelease) []*dirRelease {
	rels := slices.DeleteFunc(slices.Clone(d.rels), func(o *dirRelease) bool { return o.entry.Tag == r.entry.Tag })
	at, _ := slices.BinarySearchFunc(rels, r.entry.Tag, func(o *dirRelease, tag string) int { return d.order(o.entry.Tag, tag) })
	return slices.Insert(rels, at, r)
}

// link sets the diff of rels[i] against the release before it. The
// release is copied first: rels shares its elements with d.rels until it
// is written.
func (d *ReleasesDir) link(rels []*dirRelease, i int) {
	r := *rels[i]
	r.diff = nil
	if i > 0 {
		r.diff = compareReleases(rels[i-1].doc, r.doc, d.routes)
	}
	rels[i] = &r
}

// relink links rels[i], when there is such a release, to the one before
// it and returns the write of its changes page (its removal when it is
// now the oldest).
func (d *ReleasesDir) relink(rels []*dirRelease, i int) (func() error, error) {
	if i >= len(rels) {
		return func() error { return nil }, nil
	}
	d.link(rels, i)
	file := filepath.Join(d.dir, rels[i].entry.Tag, changesFile)
	if i == 0 {
		return func() error {
			if err := os.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			return nil
		}, nil
	}
	page, err := d.changes(rels, i)
	if err != nil {
		return nil, err
	}
	return func() error { return writeFileAtomic(file, page) }, nil
}

// changes renders the changes page of rels[i] (i > 0).
func (d *ReleasesDir) changes(rels []*dirRelease, i int) ([]byte, error) {
	r, prev := rels[i], rels[i-1]
	page, err := renderChanges(d.set, r.entry.Tag, prev.entry.Tag, r.doc, prev.doc, r.diff)
	if err != nil {
		return nil, fmt.Errorf("release %s: %w", r.entry.Tag, err)
	}
	return page, nil
}

// top renders the top-level files for rels: index, stylesheet, manifest.
func (d *ReleasesDir) top(rels []*dirRelease) (Files, error) {
	n := len(rels)
	if n == 0 {
		return nil, fmt.Errorf("%s would hold no releases", d.dir)
	}
	tags := make([]string, n)
	docs := make([]*findings.Document, n)
	diffs := make([]*diff.Diff, n)
	totals := make([][]RouteTotal, n)
	m := &ReleasesManifest{Schema: ReleasesManifestSchema, Releases: make([]ManifestRelease, n)}
	for i, r := range rels {
		tags[i], docs[i], diffs[i], m.Releases[i], totals[i] = r.entry.Tag, r.doc, r.diff, r.entry, r.entry.Routes
	}
	index, err := renderReleasesIndex(d.set, tags, docs, diffs, totals)
	if err != nil {
		return nil, err
	}
	manifest, err := m.Marshal()
	if err != nil {
		return nil, err
	}
	return Files{"index.html": index, "style.css": d.style, ReleasesManifestFile: manifest}, nil
}

// writeTop writes the top-level files one by one, the manifest last: it
// is what a later run trusts.
func (d *ReleasesDir) writeTop(top Files) error {
	for _, name := range []string{"index.html", "style.css", ReleasesManifestFile} {
		file := filepath.Join(d.dir, name)
		if old, err := os.ReadFile(file); err == nil && bytes.Equal(old, top[name]) {
			continue
		}
		if err := writeFileAtomic(file, top[name]); err != nil {
			return err
		}
	}
	return nil
}
