package site

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/route"
)

// ReleasesDir is a releases directory updated one release at a time. Each
// release is written into place whole as soon as it is ready (its
// directory renamed in); the top-level pages and the manifest follow
// (at most every flushInterval during a run, and at its end), so a run that
// stops midway keeps every release it finished, and the index and
// manifest list exactly the releases that are there. Releases a run does
// not put stay as they are until removed.
//
// Only one release's records are held at a time: the top-level pages
// are rendered from the summaries the manifest keeps, and a release's
// pages are rendered again only when what they were rendered with (the
// manifest's pages key: templates, neighbours) changed.
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
	// templates fingerprints the override templates.
	templates string
	// manifest is the manifest as read, for Reuse.
	manifest *ReleasesManifest
	// stamps say which findings.json need not be read to be trusted
	// (nil: every one is read).
	stamps *Stamps
	// rels are the releases in the directory, oldest first by order.
	rels []*dirRelease
	// plan are the tags the directory is to hold when the run ends,
	// oldest first: a release's neighbours for its links.
	plan []string
	// pages are the top-level pages last written (see ReleasesManifest).
	pages []string
	// dirty is set when the top-level files lag behind rels; flushed is
	// when they were last written.
	dirty   bool
	flushed time.Time
	// flushCost is how long the last flush took.
	flushCost time.Duration
	// last is the release rendered last (one release's records at most).
	last *lastRendered
}

// flushEvery is how often, at most, a run writes the top-level files
// while releases are being put (every Put would make a run over n
// releases render n indexes).
const flushEvery = 2 * time.Second

// flushShare bounds the time a run spends writing the top-level files
// while releases are being put: rendering them grows with the number of
// releases (about a second at a thousand), so after a flush that took t
// the next waits at least flushShare·t.
const flushShare = 10

// flushInterval is how long a run waits after a flush that took cost
// before the next.
func flushInterval(cost time.Duration) time.Duration {
	return max(flushEvery, flushShare*cost)
}

// dirRelease is one release of a ReleasesDir: its manifest entry, which
// holds the summary of its records.
type dirRelease struct {
	entry ManifestRelease
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
	d, err = newReleasesDir(dir, order, opts)
	if err != nil {
		return nil, nil, err
	}
	d.fresh = kind != KindReleases
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
	d.pages = m.Pages
	for _, e := range m.Releases {
		if err := d.checkEntry(&e); err != nil {
			notes = append(notes, fmt.Sprintf("release %s is listed in %s but cannot be read back (%v); left out of the index", e.Tag, ReleasesManifestFile, err))
			d.dirty = true
			continue
		}
		d.rels = d.insert(&dirRelease{entry: e})
	}
	d.plan = d.Tags()
	return d, notes, nil
}

// newReleasesDir loads what rendering a releases directory needs.
func newReleasesDir(dir string, order func(a, b string) int, opts Options) (*ReleasesDir, error) {
	set, err := releasesTemplates(opts)
	if err != nil {
		return nil, err
	}
	style, err := releasesStyle(set)
	if err != nil {
		return nil, err
	}
	cfg, err := routesConfig(opts)
	if err != nil {
		return nil, err
	}
	fp, err := templatesFingerprint(opts.Templates)
	if err != nil {
		return nil, err
	}
	// A run's first flush waits as later ones do: a run that puts one
	// release renders the top-level files once, at its end.
	return &ReleasesDir{dir: dir, opts: opts, set: set, style: style, order: order, routes: cfg, templates: fp, flushed: time.Now()}, nil
}

// checkEntry checks that a manifest entry can be listed: a tag that names
// a directory, listed once, with a findings.json. An entry of an earlier
// manifest, without the summary of its records, gets it from its
// findings.json.
func (d *ReleasesDir) checkEntry(e *ManifestRelease) error {
	if err := CheckReleaseTag(e.Tag); err != nil {
		return err
	}
	if slices.ContainsFunc(d.rels, func(r *dirRelease) bool { return r.entry.Tag == e.Tag }) {
		return errors.New("listed twice")
	}
	file := filepath.Join(d.dir, e.Tag, "findings.json")
	if e.Records != nil {
		_, err := os.Stat(file)
		return err
	}
	doc, _, err := d.readDoc(e.Tag)
	if err != nil {
		return err
	}
	d.dirty = true
	e.Records = summarize(doc)
	e.Version, e.CommittedAt = deref(doc.Source.Version), deref(doc.Source.CommittedAt)
	if e.Routes == nil {
		e.Routes = routeTotals(doc, d.routes)
	}
	return nil
}

// readDoc reads back the findings.json of the release tag, and returns
// its SHA-256.
func (d *ReleasesDir) readDoc(tag string) (*findings.Document, string, error) {
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

// Plan says which releases the directory is to hold when the run ends:
// tags, and, unless only is set, those it holds now. A release's pages
// link to its neighbours among them, so that a run over many releases
// renders each one once.
func (d *ReleasesDir) Plan(tags []string, only bool) {
	plan := slices.Clone(tags)
	if !only {
		plan = append(plan, d.Tags()...)
	}
	slices.SortFunc(plan, d.order)
	d.plan = slices.Compact(plan)
}

// Current reports whether the directory holds the release tag as a run
// with key would write it, built from commit: the manifest lists it so,
// with the pages key it would be rendered with now, and its findings.json
// is the one the manifest records. Nothing of it needs writing then.
// A findings.json whose stamp (see Stamps) still holds is not read.
func (d *ReleasesDir) Current(key ReleasesKey, tag, commit string) bool {
	r := d.find(tag)
	if r == nil || r.entry.Commit != commit || r.entry.ReleasesKey != key {
		return false
	}
	recs := slices.Clone(r.entry.Records)
	if r.entry.Pages != d.pagesKey(d.plan, tag, recs) {
		return false
	}
	file := d.findingsFile(tag)
	if d.stamps.holds(tag, file, r.entry.FindingsSHA256) {
		return true
	}
	data, err := os.ReadFile(file)
	if err != nil || sha256Hex(data) != r.entry.FindingsSHA256 {
		d.stamps.forget(tag)
		return false
	}
	d.stamps.record(tag, file, r.entry.FindingsSHA256)
	return true
}

// findingsFile is the findings.json of the release tag.
func (d *ReleasesDir) findingsFile(tag string) string {
	return filepath.Join(d.dir, tag, "findings.json")
}

// KeepStamps makes the directory trust a findings.json by its stamp in s
// (see Stamps), and keep s up to date as it writes and reads them; Finish
// saves s.
func (d *ReleasesDir) KeepStamps(s *Stamps) { d.stamps = s }

// find returns the release tag of the directory, or nil.
func (d *ReleasesDir) find(tag string) *dirRelease {
	if i := d.index(tag); i >= 0 {
		return d.rels[i]
	}
	return nil
}

func (d *ReleasesDir) index(tag string) int {
	return slices.IndexFunc(d.rels, func(r *dirRelease) bool { return r.entry.Tag == tag })
}

// neighbours returns the tags before and after tag in tags ("" at the
// ends, and both "" when tag is not among them).
func neighbours(tags []string, tag string) (prev, next string) {
	i := slices.Index(tags, tag)
	if i < 0 {
		return "", ""
	}
	if i > 0 {
		prev = tags[i-1]
	}
	if i+1 < len(tags) {
		next = tags[i+1]
	}
	return prev, next
}

// pagesKey identifies what the pages of the release tag, with records
// recs, are rendered with when the directory holds tags: the override
// templates, the neighbours it links to, the records of the release
// before (its changes page compares with them) and the earlier releases
// whose pages show its excerpts (linkSameAs, which it sets on recs).
func (d *ReleasesDir) pagesKey(tags []string, tag string, recs []RecordSummary) string {
	prev, next := neighbours(tags, tag)
	prevSum := ""
	before := d.find(prev)
	if before != nil {
		prevSum = before.entry.FindingsSHA256
	}
	parts := []string{d.templates, prev, prevSum, next}
	linkSameAs(before, recs)
	for _, s := range recs {
		if s.SameAs != "" {
			parts = append(parts, s.ID+"="+s.SameAs)
		}
	}
	return sha256Hex([]byte(strings.Join(parts, "\n")))[:32]
}

// releaseNav are the links from a release's pages to the releases
// index, its minor version's page and its neighbours.
func releaseNav(tag, prev, next string) []navItem {
	minor := minorOf(tag)
	nav := []navItem{{Title: "Releases", File: "../index.html"}, {Title: minor, File: "../" + minorFile(minor)}}
	if prev != "" {
		nav = append(nav, navItem{Title: "← " + prev, File: "../" + prev + "/index.html"})
	}
	if next != "" {
		nav = append(nav, navItem{Title: next + " →", File: "../" + next + "/index.html"})
	}
	return nav
}

// Listed reports whether the manifest read at open lists the release tag
// as built from commit with key: then Current or Reuse may well find it
// as a run would write it, and a run need not extract it ahead. It reads
// only the manifest as read at open, so it may run beside Put and Flush.
func (d *ReleasesDir) Listed(key ReleasesKey, tag, commit string) bool {
	if d.manifest == nil {
		return false
	}
	for _, e := range d.manifest.Releases {
		if e.Tag == tag {
			return e.Commit == commit && e.ReleasesKey == key
		}
	}
	return false
}

// Reuse returns the release tag as the manifest read at open lists it,
// if it was built from commit with key and is intact (see
// ReleasesManifest.Reuse); otherwise nil and the reason.
func (d *ReleasesDir) Reuse(key ReleasesKey, tag, commit string) (*Release, string) {
	return d.manifest.Reuse(d.dir, key, tag, commit)
}

// Put writes rel, built from commit with key, into the directory: its
// site under <tag>/ with its changes page (replacing an earlier one),
// linked to its neighbours of the plan. Everything of the release is
// rendered before anything is written; the release's directory is
// replaced whole, or, when the directory holds the same records already,
// only its files whose bytes differ are written. The top-level files
// follow (see Flush).
func (d *ReleasesDir) Put(rel Release, commit string, key ReleasesKey) error {
	if err := CheckReleaseTag(rel.Tag); err != nil {
		return err
	}
	if !slices.Contains(d.plan, rel.Tag) {
		d.Plan([]string{rel.Tag}, false)
	}
	files, entry, err := d.render(rel, d.plan)
	if err != nil {
		return err
	}
	entry.Commit, entry.ReleasesKey = commit, key
	old := d.find(rel.Tag)
	rels := d.insert(&dirRelease{entry: entry})
	if d.fresh {
		// The first release replaces the directory whole: what was there
		// (nothing, or what force allowed to replace) goes only now.
		top, err := d.top(rels)
		if err != nil {
			return err
		}
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
		d.stamps.record(rel.Tag, d.findingsFile(rel.Tag), entry.FindingsSHA256)
		d.fresh, d.rels, d.dirty, d.flushed = false, rels, false, time.Now()
		return nil
	}
	if old != nil && old.entry.sameBuild(entry) {
		err = d.update(rel.Tag, files)
	} else {
		err = replaceDir(filepath.Join(d.dir, rel.Tag), files, false)
	}
	if err != nil {
		return err
	}
	d.stamps.record(rel.Tag, d.findingsFile(rel.Tag), entry.FindingsSHA256)
	d.rels, d.dirty = rels, true
	if time.Since(d.flushed) >= flushInterval(d.flushCost) {
		return d.Flush()
	}
	return nil
}

// render renders rel as the directory holding tags shows it: its site,
// with links to its neighbours, and its changes page against the release
// before it, read back from its findings.json (none when that release is
// not written yet: its pages key then changes when it is, see pagesKey).
// It returns the files and the release's manifest entry but for its
// commit and key.
func (d *ReleasesDir) render(rel Release, tags []string) (Files, ManifestRelease, error) {
	prev, next := neighbours(tags, rel.Tag)
	recs := summarize(rel.Document)
	key := d.pagesKey(tags, rel.Tag, recs)
	opts := d.opts
	opts.nav = releaseNav(rel.Tag, prev, next)
	opts.sameAs = linkSameAs(d.find(prev), recs)
	shareSummaries(d.find(prev), recs)
	rs, err := renderRelease(rel, opts)
	if err != nil {
		return nil, ManifestRelease{}, err
	}
	files, doc := rs.files, rs.doc
	entry := ManifestRelease{
		Tag: rel.Tag, FindingsSHA256: sha256Hex(files["findings.json"]), Routes: totalsOf(rs.routes),
		Version: deref(doc.Source.Version), CommittedAt: deref(doc.Source.CommittedAt),
		Pages: key, Records: recs,
	}
	if before := d.find(prev); before != nil {
		prevDoc, prevRoutes, err := d.evaluated(before)
		if err != nil {
			return nil, ManifestRelease{}, fmt.Errorf("release %s: read the release before it: %w", rel.Tag, err)
		}
		page, err := renderChanges(d.set, rel.Tag, prev, doc, prevDoc, compareEvaluated(prevDoc, doc, prevRoutes, rs.routes, d.routes), opts.nav)
		if err != nil {
			return nil, ManifestRelease{}, err
		}
		files[changesFile] = page
	}
	d.last = &lastRendered{tag: rel.Tag, findingsSHA256: entry.FindingsSHA256, doc: doc, routes: rs.routes}
	return files, entry, nil
}

// lastRendered is the release a ReleasesDir rendered last, kept for the
// changes page of the release after it (releases are put oldest first),
// which would otherwise read it back and evaluate its routes again.
type lastRendered struct {
	tag            string
	findingsSHA256 string
	doc            *findings.Document
	routes         []route.Result
}

// evaluated returns the records of the release r, as its findings.json
// holds them, and their routes: those of the release rendered last when
// that is r with the same findings.json, else read back and evaluated.
func (d *ReleasesDir) evaluated(r *dirRelease) (*findings.Document, []route.Result, error) {
	if l := d.last; l != nil && l.tag == r.entry.Tag && l.findingsSHA256 == r.entry.FindingsSHA256 {
		return l.doc, l.routes, nil
	}
	doc, _, err := d.readDoc(r.entry.Tag)
	if err != nil {
		return nil, nil, err
	}
	return doc, route.Totals(doc, d.routes), nil
}

// update writes those of files whose bytes differ from the release
// tag's files on disk, and removes its changes page when it has none.
func (d *ReleasesDir) update(tag string, files Files) error {
	dir := filepath.Join(d.dir, tag)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := writeIfDiffers(filepath.Join(dir, filepath.FromSlash(name)), files[name]); err != nil {
			return err
		}
	}
	if _, ok := files[changesFile]; !ok {
		if err := os.Remove(filepath.Join(dir, changesFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// writeIfDiffers writes data to file unless file holds it already.
func writeIfDiffers(file string, data []byte) error {
	if old, err := os.ReadFile(file); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return writeFileAtomic(file, data)
}

// Finish brings the directory up to date at the end of a run: the pages
// of each release whose neighbours or whose release before changed since
// they were rendered are rendered again (from its findings.json), then
// the top-level files are written if anything changed.
func (d *ReleasesDir) Finish() error {
	tags := d.Tags()
	for _, r := range slices.Clone(d.rels) {
		if r.entry.Pages == d.pagesKey(tags, r.entry.Tag, slices.Clone(r.entry.Records)) {
			continue
		}
		if err := d.refresh(r, tags); err != nil {
			return err
		}
	}
	if d.dirty {
		if err := d.Flush(); err != nil {
			return err
		}
	}
	// The stamps only spare the next run reading files: failing to keep
	// them is not an error of this run.
	_ = d.stamps.Save()
	return nil
}

// refresh renders the pages of the release r again, from its
// findings.json, for the directory holding tags.
func (d *ReleasesDir) refresh(r *dirRelease, tags []string) error {
	tag := r.entry.Tag
	doc, sum, err := d.readDoc(tag)
	if err != nil {
		return fmt.Errorf("release %s: %w", tag, err)
	}
	rel := Release{Tag: tag, Document: doc}
	if doc.Source.License != nil {
		if rel.License, err = os.ReadFile(filepath.Join(d.dir, tag, "upstream-license.txt")); err != nil {
			return fmt.Errorf("release %s: %w", tag, err)
		}
	}
	files, entry, err := d.render(rel, tags)
	if err != nil {
		return err
	}
	if err := d.update(tag, files); err != nil {
		return err
	}
	// A findings.json changed since it was written keeps its pages
	// rendered from it, but no stamp: the next run reads it, finds the
	// change and builds the release again.
	if sum == r.entry.FindingsSHA256 {
		d.stamps.record(tag, d.findingsFile(tag), sum)
	} else {
		d.stamps.forget(tag)
	}
	r.entry.Pages, r.entry.Routes, r.entry.Records = entry.Pages, entry.Routes, entry.Records
	d.dirty = true
	return nil
}

// Flush writes the top-level files for the releases the directory holds:
// the pages whose bytes differ, the manifest last (it is what a later
// run trusts), and then removes the top-level pages no longer rendered.
func (d *ReleasesDir) Flush() error {
	if d.fresh || len(d.rels) == 0 {
		return nil
	}
	began := time.Now()
	top, err := d.top(d.rels)
	if err != nil {
		return err
	}
	names := slices.Sorted(maps.Keys(top))
	for _, name := range names {
		if name == ReleasesManifestFile {
			continue
		}
		if err := writeIfDiffers(filepath.Join(d.dir, filepath.FromSlash(name)), top[name]); err != nil {
			return err
		}
	}
	if err := writeIfDiffers(filepath.Join(d.dir, ReleasesManifestFile), top[ReleasesManifestFile]); err != nil {
		return err
	}
	for _, name := range d.pages {
		if _, ok := top[name]; !ok && safeTopPage(name) {
			if err := os.Remove(filepath.Join(d.dir, filepath.FromSlash(name))); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
	}
	d.pages = topPages(top)
	d.dirty, d.flushed = false, time.Now()
	d.flushCost = d.flushed.Sub(began)
	_ = d.stamps.Save() // see Finish
	return nil
}

// topPages lists the pages of top that come and go with the releases:
// the minor versions' and the timelines.
func topPages(top Files) []string {
	var pages []string
	for name := range top {
		if name != "index.html" && strings.HasSuffix(name, ".html") {
			pages = append(pages, name)
		}
	}
	slices.Sort(pages)
	return pages
}

// safeTopPage reports whether a page the manifest lists is one the index
// writes (a minor version's page or a timeline), so that removing it
// cannot touch anything else.
func safeTopPage(name string) bool {
	base, ok := strings.CutSuffix(name, ".html")
	if !ok {
		return false
	}
	if id, ok := strings.CutPrefix(base, timelineDir+"/"); ok {
		return timelineIDPattern.MatchString(id)
	}
	return releaseDirPattern.MatchString(base) && !strings.Contains(base, "/")
}

// Remove takes the release tag out of the directory: out of the index
// and the manifest first, then its files. The releases beside it are
// linked anew by Finish.
func (d *ReleasesDir) Remove(tag string) error {
	i := d.index(tag)
	if i < 0 {
		return fmt.Errorf("release %s is not in %s", tag, d.dir)
	}
	d.rels = slices.Delete(slices.Clone(d.rels), i, i+1)
	d.plan = slices.DeleteFunc(d.plan, func(t string) bool { return t == tag })
	d.dirty = true
	if err := d.Flush(); err != nil {
		return err
	}
	d.stamps.forget(tag)
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

// top renders the top-level files for rels: the pages, the stylesheet
// and the manifest.
func (d *ReleasesDir) top(rels []*dirRelease) (Files, error) {
	files, err := d.renderTop(rels)
	if err != nil {
		return nil, err
	}
	m := &ReleasesManifest{Schema: ReleasesManifestSchema, Pages: topPages(files), Releases: make([]ManifestRelease, len(rels))}
	for i, r := range rels {
		m.Releases[i] = r.entry
	}
	if files[ReleasesManifestFile], err = m.Marshal(); err != nil {
		return nil, err
	}
	return files, nil
}
