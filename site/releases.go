package site

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"regexp"
	"slices"
	"strings"
	texttemplate "text/template"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/mdtext"
	"github.com/keyfindings/keyfindings/route"
)

// Release is one release tag's records.
type Release struct {
	// Tag names the release; its site goes under <Tag>/.
	Tag      string
	Document *findings.Document
	// License is the upstream licence file, nil when there is none.
	License []byte
}

// Template files of a releases directory.
const (
	releasesTemplate       = "releases.md.tmpl"
	changesTemplate        = "changes.md.tmpl"
	releasesLayoutTemplate = "releases-layout.html.tmpl"
	routesPlotTemplate     = "releases-routes.html.tmpl"
	changesFile            = "changes.html"
)

// releaseDirPattern is what a tag must look like to name a directory and
// sit in a link as it is: semver tags (v1.2.3-rc.1+b) always do.
var releaseDirPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)

// CheckReleaseTag reports whether tag can name a release's directory and
// sit in links as it is: letters, digits and . _ + - (as semver tags
// are), and not a file of the top level.
func CheckReleaseTag(tag string) error {
	if !releaseDirPattern.MatchString(tag) || strings.HasSuffix(tag, ".html") || tag == "style.css" || tag == timelineDir {
		return fmt.Errorf("tag %q cannot name a directory of the site (want letters, digits and . _ + -, and not the name of a top-level file: index.html, style.css, timeline, *.html); narrow --match", tag)
	}
	return nil
}

// compareEvaluated compares two releases' records, and the routes of the
// representative models on them, evaluated already (route.Totals).
func compareEvaluated(old, new *findings.Document, oldRoutes, newRoutes []route.Result, cfg *route.Config) *diff.Diff {
	d := diff.Compare(old, new)
	route.CompareTotals(d, cfg, oldRoutes, newRoutes)
	return d
}

// releasesTemplates loads the templates and checks that those of a
// releases directory are there.
func releasesTemplates(opts Options) (*templateSet, error) {
	set, err := loadTemplates(opts.Templates)
	if err != nil {
		return nil, err
	}
	for _, need := range []string{releasesTemplate, changesTemplate, minorTemplate, timelineTemplate} {
		if set.md.Lookup(need) == nil {
			return nil, fmt.Errorf("template %s is missing", need)
		}
	}
	for _, need := range []string{releasesLayoutTemplate, routesPlotTemplate} {
		if set.html.Lookup(need) == nil {
			return nil, fmt.Errorf("HTML template %s is missing", need)
		}
	}
	return set, nil
}

// renderRelease renders one release's site as RenderWith does, with the
// copy of its records decoded from its findings.json (the copy every page
// of a releases directory compares and renders) and their routes.
func renderRelease(rel Release, opts Options) (*renderedSite, error) {
	s, err := renderSite(rel.Document, rel.License, opts)
	if err != nil {
		return nil, fmt.Errorf("release %s: %w", rel.Tag, err)
	}
	return s, nil
}

// releasesStyle returns the stylesheet of a releases directory's top
// level.
func releasesStyle(set *templateSet) ([]byte, error) {
	css, err := highlightCSS()
	if err != nil {
		return nil, err
	}
	return append(append(bytes.Clone(set.style), '\n'), css...), nil
}

// The change classes a release lists, in the order the index counts them.
var changeClasses = []string{diff.Changed, diff.Moved, diff.Added, diff.Found, diff.Introduced, diff.Removed, diff.Lost, diff.Retired, diff.Missing}

// releaseRow is one release on the index.
type releaseRow struct {
	Tag string
	// Index is the release's key-findings page.
	Index  string
	Source sourceView
	// Commit is the commit shortened as citations shorten it.
	Commit string
	// Version is the package version when it is not the tag's own
	// (v1.2.3 for 1.2.3); "" otherwise.
	Version string
	// Date is the commit date, YYYY-MM-DD.
	Date           string
	Located, Total int
	// Previous is the tag of the release before; "" for the oldest.
	Previous string
	// Changes is the release's changes page; "" for the oldest.
	Changes string
	// Counts are the changeClasses, each with its count.
	Counts    []countView
	Unchanged int
	// Differs counts the findings that differ from the release before
	// (diff.FindingDiff.Differs: not those missing in both alike).
	Differs int
}

// countView is one change count and the list it links to.
type countView struct {
	Status string
	N      int
	Href   string
}

// releasePage renders one page of a releases directory (not of a
// release's own site): a Markdown template through goldmark into the
// releases layout.
type releasePage struct {
	r *renderer
}

func newReleasePage(set *templateSet, file string, figures map[string]htmltemplate.HTML) *releasePage {
	r := &renderer{doc: &findings.Document{}, set: set, page: file}
	r.md = newMarkdown(nil, set.html, figures)
	return &releasePage{r: r}
}

// releaseLayoutView is the data of releases-layout.html.tmpl.
type releaseLayoutView struct {
	Title string
	// Style is the stylesheet's relative URL.
	Style string
	Nav   []navItem
	// Body is the page's HTML as goldmark wrote it.
	Body htmltemplate.HTML
}

func (p *releasePage) html(name string, data any, title, style string, nav []navItem) ([]byte, error) {
	t, err := p.r.set.md.Clone()
	if err != nil {
		return nil, err
	}
	t.Funcs(texttemplate.FuncMap(p.r.funcs(true)))
	var md bytes.Buffer
	if err := t.ExecuteTemplate(&md, name, data); err != nil {
		return nil, fmt.Errorf("render %s: %w", name, err)
	}
	body, err := p.r.md.convert(md.Bytes())
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", p.r.page, err)
	}
	lv := releaseLayoutView{Title: title, Style: style, Nav: nav, Body: htmltemplate.HTML(body)} // goldmark output: escaped, no raw HTML
	var b bytes.Buffer
	if err := p.r.set.html.ExecuteTemplate(&b, releasesLayoutTemplate, lv); err != nil {
		return nil, fmt.Errorf("render %s: %w", p.r.page, err)
	}
	return b.Bytes(), nil
}

// changesView is the data of changes.md.tmpl.
type changesView struct {
	Tag, Previous string
	// Source and PreviousSource describe the two commits.
	Source, PreviousSource sourceView
	// PreviousIndex links to the previous release's key findings.
	PreviousIndex string
	Summary       string
	// Groups are the non-empty change classes, in changeClasses order.
	Groups []changeGroup
	// Unchanged are the findings with no change.
	Unchanged []changeEntry
	// Routes are the representative models' routes whose token totals
	// changed.
	Routes []routeChangeView
}

// routeChangeView is one route on a changes page.
type routeChangeView struct {
	Model, Provider string
	// Total says how the total changed; Href links the route at this
	// release.
	Total, Href string
	Parts       []routePartView
}

// routePartView is one record's share of a route's change; Href links
// its entry on the changes page.
type routePartView struct {
	Text, Record, Href string
}

// changeGroup is one change class on a changes page.
type changeGroup struct {
	Status string
	// Title is the status capitalised, for the heading.
	Title string
	// ID is the group's anchor: the status.
	ID      string
	Entries []changeEntry
}

// changeEntry is one finding on a changes page.
type changeEntry struct {
	ID     string
	Anchor string
	// Record is the newer record, or the older one when the id is gone.
	Record   *findings.Record
	Old, New *findings.Record
	// Href links to the finding at this release; PreviousHref at the one
	// before. Either is "" where the release has no such record.
	Href, PreviousHref string
	Note               string
	// Diff is the excerpt's unified diff; "" when the bytes are equal.
	Diff string
	// Tokens says how the token counts changed; "" for records without.
	Tokens string
	// Facts are the changed facts with single values; FactLists those
	// that are lists on both sides, diffed item by item.
	Facts     []factChangeView
	FactLists []factListView
}

// routeChanges lists the routes of d whose totals changed, each part
// linked to its record's entry on the page (anchors by finding id).
func routeChanges(d *diff.Diff, anchors map[string]string) []routeChangeView {
	var out []routeChangeView
	for _, r := range d.Routes {
		if !r.Differs() {
			continue
		}
		rv := routeChangeView{Model: r.Model, Provider: r.Provider, Total: r.Total(), Href: routesFile + "#route-" + slugify(r.Model)}
		for _, p := range r.Parts {
			pv := routePartView{Text: p.Text(), Record: p.Record}
			if a := anchors[p.Record]; a != "" {
				pv.Href = "#" + a
			}
			rv.Parts = append(rv.Parts, pv)
		}
		out = append(out, rv)
	}
	return out
}

// factChangeView is a fact whose single value changed; a side without
// the fact is marked absent (a nil value could also be a JSON null).
type factChangeView struct {
	Name                 string
	Old, New             any
	OldAbsent, NewAbsent bool
}

// factListView is a list fact diffed item by item, as diff lines.
type factListView struct {
	Name  string
	Items string
}

// renderChanges renders the changes page of the release tag since prev;
// nav are the links to the releases index and the neighbours.
func renderChanges(set *templateSet, tag, prev string, doc, prevDoc *findings.Document, d *diff.Diff, nav []navItem) ([]byte, error) {
	v := &changesView{
		Tag: tag, Previous: prev,
		Source: newSourceView(doc.Source), PreviousSource: newSourceView(prevDoc.Source),
		PreviousIndex: "../" + prev + "/index.html",
		Summary:       d.Summary(),
	}
	used := map[string]bool{}
	for _, id := range reservedIDs {
		used[id] = true
	}
	for _, s := range diff.Statuses {
		used[s] = true
	}
	used["routes"] = true
	anchors := map[string]string{}
	groups := map[string]*changeGroup{}
	for _, s := range changeClasses {
		groups[s] = &changeGroup{Status: s, Title: pageTitle(s), ID: s}
	}
	for _, f := range d.Findings {
		e := changeEntry{ID: f.ID, Old: f.Old, New: f.New, Record: f.New, Note: mdtext.Capitalize(f.Note)}
		if e.Record == nil {
			e.Record = f.Old
		}
		e.Anchor = f.ID
		for k := 2; used[e.Anchor]; k++ {
			e.Anchor = fmt.Sprintf("%s-%d", f.ID, k)
		}
		used[e.Anchor] = true
		anchors[f.ID] = e.Anchor
		if f.New != nil {
			e.Href = f.New.Page + ".html#" + f.ID
		}
		if f.Old != nil {
			e.PreviousHref = "../" + prev + "/" + f.Old.Page + ".html#" + f.ID
		}
		if f.Tokens != nil {
			e.Tokens = f.Tokens.Text()
		}
		if len(f.Hunks) > 0 {
			var b strings.Builder
			fmt.Fprintf(&b, "--- %s/%s\n+++ %s/%s\n", prev, f.Old.Location.Path, tag, f.New.Location.Path)
			for _, h := range f.Hunks {
				b.WriteString(h.Header() + "\n")
				for _, l := range h.Lines {
					b.WriteString(l + "\n")
				}
			}
			e.Diff = b.String()
		}
		for _, fc := range f.Facts {
			if fc.Items == nil {
				e.Facts = append(e.Facts, factChangeView{Name: fc.Name, Old: fc.Old, New: fc.New, OldAbsent: fc.Old == nil, NewAbsent: fc.New == nil})
				continue
			}
			var b strings.Builder
			for _, it := range fc.Items {
				b.WriteString(it[:1] + " " + it[1:] + "\n")
			}
			e.FactLists = append(e.FactLists, factListView{Name: fc.Name, Items: b.String()})
		}
		if f.Status == diff.Unchanged {
			v.Unchanged = append(v.Unchanged, e)
			continue
		}
		if g := groups[f.Status]; g != nil {
			g.Entries = append(g.Entries, e)
		}
	}
	for _, s := range changeClasses {
		if g := groups[s]; len(g.Entries) > 0 {
			v.Groups = append(v.Groups, *g)
		}
	}
	v.Routes = routeChanges(d, anchors)
	p := newReleasePage(set, changesFile, nil)
	nav = append(slices.Clone(nav),
		navItem{Title: "Key findings at " + tag, File: "index.html"},
		navItem{Title: "Changes since " + prev, File: changesFile, Current: true},
	)
	return p.html(changesTemplate, v, "Changes in "+tag+" since "+prev+" · "+findings.DefaultPin().Name, "style.css", nav)
}
