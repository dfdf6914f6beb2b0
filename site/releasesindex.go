package site

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"regexp"
	"slices"
	"strings"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/par"
	"github.com/keyfindings/keyfindings/mdtext"
)

// The top-level pages of a releases directory, rendered from the
// releases' summaries alone (see releasessummary.go): index.html (the
// minor versions, the newest minor's releases, an overview of the
// findings), one page per minor version (v1.17.html) and one timeline
// page per finding (timeline/<id>.html).

// Template files and folders of the top-level pages.
const (
	minorTemplate    = "releases-minor.md.tmpl"
	timelineTemplate = "releases-timeline.md.tmpl"
	timelineDir      = "timeline"
)

// minorPattern takes the minor version of a semver tag: v1.17 of
// v1.17.3 (and of v1.17.3-rc.1).
var minorPattern = regexp.MustCompile(`^(.*?\d+\.\d+)\.\d+(?:[-+].*)?$`)

// minorOf returns the minor version a tag belongs to; a tag that is not
// semver is a group of its own.
func minorOf(tag string) string {
	if m := minorPattern.FindStringSubmatch(tag); m != nil {
		return m[1]
	}
	return tag
}

// minorFile is the page of a minor version.
func minorFile(minor string) string { return minor + ".html" }

// timelineFile is the page of a finding's timeline, from the top level.
func timelineFile(id string) string { return timelineDir + "/" + id + ".html" }

// minorRow is one minor version on the index.
type minorRow struct {
	Minor, Href string
	// Releases counts its releases; Oldest and Newest name them, From
	// and To their dates.
	Releases       int
	Oldest, Newest string
	From, To       string
	// Changes counts, over its releases, the findings that differ from
	// the release before.
	Changes int
}

// releasesView is the data of releases.md.tmpl.
type releasesView struct {
	// Repo is the web URL of the source; "" when there is none.
	Repo string
	// Count is the number of releases.
	Count          int
	Oldest, Newest releaseRow
	// Findings counts the distinct finding ids across the releases.
	Findings int
	// Minors are the minor versions, newest first.
	Minors []minorRow
	// Minor is the newest minor version, whose releases are Releases
	// (newest first).
	Minor    minorRow
	Releases []releaseRow
	// Overview has a line per finding, in catalog order.
	Overview []overviewRow
	// RoutesPlot is set when the index shows the plot of route totals.
	RoutesPlot bool
}

// minorView is the data of releases-minor.md.tmpl.
type minorView struct {
	Repo  string
	Minor minorRow
	// Previous and Next are the older and the newer minor version; ""
	// Href at the ends.
	Previous, Next minorRow
	Releases       []releaseRow
}

// overviewRow is one finding on the index.
type overviewRow struct {
	ID, Title, Href string
	// Now is the finding's state at the newest release.
	Now where
	// Changes counts the releases where its record changed; Last is the
	// newest of them, LastHref what changed there.
	Changes        int
	Last, LastHref string
}

// timelineView is the data of releases-timeline.md.tmpl.
type timelineView struct {
	ID, Title string
	Oldest    string
	Newest    string
	Count     int
	// Segments are newest first.
	Segments []segmentView
}

// segmentView is one run of releases on a timeline page.
type segmentView struct {
	From, To string
	// FromHref links the release that begins the run.
	FromHref string
	// Releases counts the releases of the run.
	Releases int
	// Mark is what happened at From ("" for the oldest release shown);
	// ChangesHref links it on From's changes page.
	Mark, ChangesHref string
	Note              string
	// State is the record's state through the run; RecordHref links it
	// at From.
	State      where
	RecordHref string
}

// where is a record's state: its status (with the problem, when it is
// not located) or, located, its path and lines.
type where struct {
	Status, Path, Lines string
}

// whereOf describes rec; nil is a release without a record of the finding.
func whereOf(rec *RecordSummary) where {
	switch {
	case rec == nil:
		return where{Status: "no record"}
	case rec.Status == string(findings.StatusLocated):
		w := where{Status: rec.Status, Path: rec.Path}
		if l := rec.lines(); l != nil {
			w.Lines = linesText(*l)
		}
		return w
	case rec.Problem != "":
		return where{Status: rec.Status + ": " + rec.Problem}
	}
	return where{Status: rec.Status}
}

// renderTop renders the top-level files for rels (oldest first): the
// index, the minor pages, the timelines, the stylesheet.
func (d *ReleasesDir) renderTop(rels []*dirRelease) (Files, error) {
	n := len(rels)
	if n == 0 {
		return nil, fmt.Errorf("%s would hold no releases", d.dir)
	}
	diffs := summaryDiffs(rels)
	rows := make([]releaseRow, n)
	for i, r := range rels {
		rows[i] = newReleaseRow(r, i, rels, diffs)
	}
	files := Files{"style.css": d.style}

	// Minor versions, in release order.
	var minors []minorRow
	var groups [][]releaseRow
	for i, r := range rels {
		m := minorOf(r.entry.Tag)
		if len(minors) == 0 || minors[len(minors)-1].Minor != m {
			minors = append(minors, minorRow{Minor: m, Href: minorFile(m), Oldest: r.entry.Tag, From: rows[i].Date})
			groups = append(groups, nil)
		}
		k := len(minors) - 1
		minors[k].Releases++
		minors[k].Newest, minors[k].To = r.entry.Tag, rows[i].Date
		minors[k].Changes += rows[i].Differs
		groups[k] = append([]releaseRow{rows[i]}, groups[k]...)
	}
	repo := webBase(rels[n-1].entry.Repo)
	// The minor versions' pages and the timelines are rendered on several
	// goroutines, each into its slot.
	minorPages := make([][]byte, len(minors))
	errs := make([]error, len(minors))
	par.ForEach(len(minors), par.Workers(), func(k int) {
		m := minors[k]
		v := &minorView{Repo: repo, Minor: m, Releases: groups[k]}
		if k > 0 {
			v.Previous = minors[k-1]
		}
		if k+1 < len(minors) {
			v.Next = minors[k+1]
		}
		minorPages[k], errs[k] = d.topPage(minorTemplate, v, "Releases "+m.Minor+" · "+findings.DefaultPin().Name, minorFile(m.Minor), "", nil, m.Minor)
	})
	for k, m := range minors {
		if errs[k] != nil {
			return nil, errs[k]
		}
		files[minorFile(m.Minor)] = minorPages[k]
	}

	lists := make([][]string, n)
	for i, r := range rels {
		for _, s := range r.entry.Records {
			lists[i] = append(lists[i], s.ID)
		}
	}
	ids := unionIDs(lists)
	v := &releasesView{Repo: repo, Count: n, Oldest: rows[0], Newest: rows[n-1], Findings: len(ids)}
	slices.Reverse(minors)
	v.Minors, v.Minor, v.Releases = minors, minors[0], groups[len(groups)-1]
	for _, id := range ids {
		if !timelineIDPattern.MatchString(id) {
			return nil, fmt.Errorf("finding id %q cannot name a timeline page", id)
		}
	}
	v.Overview = make([]overviewRow, len(ids))
	timelines := make([][]byte, len(ids))
	errs = make([]error, len(ids))
	par.ForEach(len(ids), par.Workers(), func(k int) {
		id := ids[k]
		segs := timeline(id, rels, diffs)
		tv := d.timelineView(id, rels, segs)
		timelines[k], errs[k] = d.topPage(timelineTemplate, tv, "Timeline of "+id+" · "+findings.DefaultPin().Name, id+".html", "../", nil, "")
		o := overviewRow{ID: id, Title: tv.Title, Href: timelineFile(id), Now: tv.Segments[0].State, Changes: len(segs) - 1}
		if last := segs[len(segs)-1]; last.Mark != "" {
			o.Last = rels[last.From].entry.Tag
			o.LastHref = strings.TrimPrefix(tv.Segments[0].ChangesHref, "../")
		}
		v.Overview[k] = o
	})
	for k, id := range ids {
		if errs[k] != nil {
			return nil, errs[k]
		}
		files[timelineFile(id)] = timelines[k]
	}
	var figures map[string]htmltemplate.HTML
	tags := make([]string, n)
	totals := make([][]RouteTotal, n)
	for i, r := range rels {
		tags[i], totals[i] = r.entry.Tag, r.entry.Routes
	}
	if pv := buildRoutesPlot(tags, totals); pv != nil {
		var plot bytes.Buffer
		if err := d.set.html.ExecuteTemplate(&plot, routesPlotTemplate, pv); err != nil {
			return nil, fmt.Errorf("render %s: %w", routesPlotTemplate, err)
		}
		figures = map[string]htmltemplate.HTML{"routes": htmltemplate.HTML(plot.String())} // html/template output
		v.RoutesPlot = true
	}
	title := "Key findings across releases · " + findings.DefaultPin().Name + " " + tags[0] + " to " + tags[n-1]
	index, err := d.topPage(releasesTemplate, v, title, "index.html", "", figures, "")
	if err != nil {
		return nil, err
	}
	files["index.html"] = index
	return files, nil
}

// topPage renders a top-level page (file, under prefix: "" or "../")
// with the releases navigation; minor names the current minor page.
func (d *ReleasesDir) topPage(name string, data any, title, file, prefix string, figures map[string]htmltemplate.HTML, minor string) ([]byte, error) {
	p := newReleasePage(d.set, file, figures)
	nav := []navItem{{Title: "Releases", File: prefix + "index.html", Current: file == "index.html" && prefix == ""}}
	if minor != "" {
		nav = append(nav, navItem{Title: minor, File: minorFile(minor), Current: true})
	}
	return p.html(name, data, title, prefix+"style.css", nav)
}

// newReleaseRow is the row of rels[i] in the tables of releases.
func newReleaseRow(r *dirRelease, i int, rels []*dirRelease, diffs []*summaryDiff) releaseRow {
	e := r.entry
	src := findings.Source{Repo: e.Repo, Ref: e.Tag}
	if e.Version != "" {
		src.Version = ptr(e.Version)
	}
	if e.Commit != "" {
		src.Commit = ptr(e.Commit)
	}
	if e.CommittedAt != "" {
		src.CommittedAt = ptr(e.CommittedAt)
	}
	row := releaseRow{Tag: e.Tag, Index: e.Tag + "/index.html", Source: newSourceView(src), Total: len(e.Records)}
	row.Commit = short(row.Source.Commit)
	if ver := row.Source.Version; ver != strings.TrimPrefix(e.Tag, "v") {
		row.Version = ver
	}
	if len(e.CommittedAt) >= 10 {
		row.Date = e.CommittedAt[:10]
	}
	for _, s := range e.Records {
		if s.Status == string(findings.StatusLocated) {
			row.Located++
		}
	}
	if i > 0 {
		row.Previous = rels[i-1].entry.Tag
		row.Changes = e.Tag + "/" + changesFile
		counts := diffs[i].counts
		for _, s := range changeClasses {
			row.Counts = append(row.Counts, countView{Status: s, N: counts[s], Href: row.Changes + "#" + s})
		}
		row.Unchanged = counts[diff.Unchanged]
		row.Differs = diffs[i].differs
	}
	return row
}

// timelineView lays out the timeline page of id from its segments.
func (d *ReleasesDir) timelineView(id string, rels []*dirRelease, segs []segment) *timelineView {
	v := &timelineView{ID: id, Title: id, Oldest: rels[0].entry.Tag, Newest: rels[len(rels)-1].entry.Tag, Count: len(rels)}
	for i := len(rels) - 1; i >= 0; i-- {
		if rec := recordOf(rels[i].entry.Records, id); rec != nil {
			v.Title = rec.Title
			break
		}
	}
	for k := len(segs) - 1; k >= 0; k-- {
		s := segs[k]
		from := rels[s.From].entry.Tag
		sv := segmentView{From: from, To: rels[s.To].entry.Tag, FromHref: "../" + from + "/index.html", Releases: s.To - s.From + 1, Mark: s.Mark, Note: mdtext.Capitalize(s.Note)}
		if s.Mark != "" {
			sv.ChangesHref = "../" + from + "/" + changesFile + "#" + id
		}
		sv.State = whereOf(s.Rec)
		if s.Rec != nil {
			sv.RecordHref = "../" + from + "/" + s.Rec.Page + ".html#" + id
		}
		v.Segments = append(v.Segments, sv)
	}
	return v
}

// templatesFingerprint identifies the override templates (the embedded
// ones are part of the keyfindings build): the SHA-256 of their names
// and bytes; "" without overrides.
func templatesFingerprint(fsys fs.FS) (string, error) {
	if fsys == nil {
		return "", nil
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return "", fmt.Errorf("read templates: %w", err)
	}
	var b bytes.Buffer
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return "", fmt.Errorf("read template %s: %w", e.Name(), err)
		}
		fmt.Fprintf(&b, "%s %d\n", e.Name(), len(data))
		b.Write(data)
	}
	return sha256Hex(b.Bytes()), nil
}
