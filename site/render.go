package site

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	texttemplate "text/template"
	"time"

	"github.com/keyfindings/keyfindings/cite"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/par"
	"github.com/keyfindings/keyfindings/route"
)

// Options control how RenderWith builds the pages.
type Options struct {
	// Templates overrides the embedded templates file by file (see package
	// templates); nil uses the embedded set alone.
	Templates fs.FS
	// Routes is the routes data the routes page evaluates; nil uses the
	// data built into keyfindings (findings/routes.yaml).
	Routes *route.Config
	// nav are links put before a page's own navigation: a releases
	// directory's links from a release to its neighbours.
	nav []navItem
	// sameAs maps a record id to the release whose pages show the same
	// excerpt (a releases directory's earlier release): the pages link
	// to it instead of repeating it.
	sameAs map[string]string
}

// pageTitle is the heading of a per-page file: the page name, capitalised.
func pageTitle(page string) string {
	if page == "" {
		return page
	}
	return strings.ToUpper(page[:1]) + page[1:]
}

// RenderWith returns the files of one commit's site: findings.json, the
// upstream licence (when license is not nil), index.html, one HTML page
// per findings page, routes.html, findings.md and style.css, with the
// templates opts names (else the embedded ones). The pages are rendered
// from the findings.json bytes and nothing else: the document is encoded, decoded
// again, and only the decoded copy reaches the templates.
func RenderWith(doc *findings.Document, license []byte, opts Options) (Files, error) {
	s, err := renderSite(doc, license, opts)
	if err != nil {
		return nil, err
	}
	return s.files, nil
}

// renderedSite is what renderSite renders: the files, and what it read
// them from, for a releases directory to compare and summarize without
// decoding or evaluating again.
type renderedSite struct {
	files Files
	// doc is the document as decoded from files["findings.json"].
	doc *findings.Document
	// routes are the representative models' routes on doc.
	routes []route.Result
}

// renderSite is RenderWith, returning what it rendered from as well.
func renderSite(doc *findings.Document, license []byte, opts Options) (*renderedSite, error) {
	data, err := doc.Marshal()
	if err != nil {
		return nil, fmt.Errorf("encode findings.json: %w", err)
	}
	rec, err := findings.DecodeDocument(data, "findings.json")
	if err != nil {
		return nil, err
	}
	set, err := loadTemplates(opts.Templates)
	if err != nil {
		return nil, err
	}
	r, err := newRenderer(rec, set, license != nil, opts.sameAs)
	if err != nil {
		return nil, err
	}
	r.nav = opts.nav
	files := Files{"findings.json": data}
	if license != nil {
		files["upstream-license.txt"] = license
	}

	cfg, err := routesConfig(opts)
	if err != nil {
		return nil, err
	}
	totals := route.Totals(rec, cfg)
	routes := r.routes(totals, cfg)
	// The files are rendered on all cores, each by a copy of the renderer
	// with a view of its own (htmlPage sets the page being rendered);
	// what they share is read only.
	type job struct {
		file   string
		render func(r *renderer) ([]byte, error)
	}
	jobs := []job{{"index.html", func(r *renderer) ([]byte, error) {
		return r.htmlPage(indexTemplate, nil, "Key findings", "index.html")
	}}}
	for i := range r.view.Pages {
		p := &r.view.Pages[i]
		jobs = append(jobs, job{p.File, func(r *renderer) ([]byte, error) {
			return r.htmlPage(pageTemplate, p, p.Title, p.File)
		}})
	}
	jobs = append(jobs, job{routesFile, func(r *renderer) ([]byte, error) {
		r.view.Routes = routes
		return r.htmlPage(routesTemplate, nil, "Routes", routesFile)
	}}, job{"findings.md", func(r *renderer) ([]byte, error) {
		return r.markdown(findingsTemplate, r.view, false)
	}})
	out := make([][]byte, len(jobs))
	errs := make([]error, len(jobs))
	par.ForEach(len(jobs), par.Workers(), func(i int) {
		rc := *r
		v := *r.view
		rc.view = &v
		out[i], errs[i] = jobs[i].render(&rc)
	})
	for i, j := range jobs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		files[j.file] = out[i]
	}
	css, err := highlightCSS()
	if err != nil {
		return nil, err
	}
	files["style.css"] = append(append(bytes.Clone(set.style), '\n'), css...)
	return &renderedSite{files: files, doc: rec, routes: totals}, nil
}

// view is the data every Markdown template receives.
type view struct {
	// Doc is the document as read from findings.json.
	Doc *findings.Document
	// Source is Doc.Source prepared for display.
	Source sourceView
	// Sections are the index sections in order, each with its records.
	Sections []sectionView
	// Pages are the per-page files in order.
	Pages []pageView
	// Page is the page being rendered (page.md.tmpl only).
	Page *pageView
	// HTML is true when the Markdown becomes an HTML page and false for
	// findings.md.
	HTML bool
	// LicenseFile is true when upstream-license.txt is part of the site.
	LicenseFile bool
	// Routes are the representative models' routes (routes.md.tmpl only).
	Routes *routesView
}

// sourceView describes the commit for headers.
type sourceView struct {
	Repo string
	Ref  string
	// Commit is the full commit id; "" for a plain directory.
	Commit      string
	ShortCommit string
	// CommitURL is the commit's web page; "" when there is none.
	CommitURL string
	Version   string
	// Date is the commit time as "2006-01-02 15:04:05 UTC".
	Date    string
	License *findings.License
	// LicenseURL is the licence file's permalink; "" when there is none.
	LicenseURL string
}

// sectionView is one index section and its records.
type sectionView struct {
	Title    string
	ID       string
	Findings []*findings.Record
}

// pageView is one per-page file.
type pageView struct {
	Name  string
	Title string
	File  string
	// Findings are the page's records in catalog order.
	Findings []*findings.Record
	// Sections group Findings by index section, in index order.
	Sections []sectionView
}

// renderer renders one document.
type renderer struct {
	doc     *findings.Document
	set     *templateSet
	view    *view
	records map[string]*findings.Record
	// sectionIDs maps section titles to their anchors, the same on every
	// page.
	sectionIDs map[string]string
	md         *markdown
	// page is the file being rendered ("" for findings.md), for links.
	page string
	// nav are links before the pages' own (Options.nav).
	nav []navItem
	// sameAs is Options.sameAs.
	sameAs map[string]string
}

func newRenderer(doc *findings.Document, set *templateSet, licenseFile bool, sameAs map[string]string) (*renderer, error) {
	r := &renderer{doc: doc, set: set, records: map[string]*findings.Record{}, sameAs: sameAs}
	for _, rec := range doc.Findings {
		if _, err := checkAnchor(rec.ID); err != nil {
			return nil, fmt.Errorf("record id: %w", err)
		}
		if r.records[rec.ID] != nil {
			return nil, fmt.Errorf("two records have the id %q", rec.ID)
		}
		if !slices.Contains(findings.Pages, rec.Page) {
			return nil, fmt.Errorf("record %s: unknown page %q (want one of %s)", rec.ID, rec.Page, strings.Join(findings.Pages, ", "))
		}
		r.records[rec.ID] = rec
	}
	lexed, err := lexExcerpts(r.records, sameAs)
	if err != nil {
		return nil, err
	}
	r.md = newMarkdownLexed(r.records, lexed, set.html, nil)
	v := &view{Doc: doc, Source: newSourceView(doc.Source), LicenseFile: licenseFile}
	v.Sections = r.sections(doc.Findings)
	r.sectionIDs = map[string]string{}
	used := map[string]bool{}
	for _, id := range reservedIDs {
		used[id] = true
	}
	for id := range r.records {
		used[id] = true
	}
	for i, s := range v.Sections {
		base := slugify(s.Title)
		id := base
		for n := 2; used[id]; n++ {
			id = base + "-" + strconv.Itoa(n)
		}
		used[id] = true
		r.sectionIDs[s.Title] = id
		v.Sections[i].ID = id
	}
	for _, name := range findings.Pages {
		p := pageView{Name: name, Title: pageTitle(name), File: name + ".html"}
		for _, rec := range doc.Findings {
			if rec.Page == name {
				p.Findings = append(p.Findings, rec)
			}
		}
		p.Sections = r.sections(p.Findings)
		for i := range p.Sections {
			p.Sections[i].ID = r.sectionIDs[p.Sections[i].Title]
		}
		v.Pages = append(v.Pages, p)
	}
	r.view = v
	return r, nil
}

// reservedIDs are anchors the templates use for their own headings.
var reservedIDs = []string{"contents", "scope", "evidence-limits", "licence", "findings", toolResultsID}

// sections groups records by their section field: the sections listed in
// sections.txt first, in that order, then any others in the order they
// first occur. A record without a section goes under "Other findings".
// The caller sets the anchors.
func (r *renderer) sections(recs []*findings.Record) []sectionView {
	byTitle := map[string]*sectionView{}
	var order []string
	for _, rec := range recs {
		t := strings.TrimSpace(rec.Section)
		if t == "" {
			t = "Other findings"
		}
		if byTitle[t] == nil {
			byTitle[t] = &sectionView{Title: t}
			order = append(order, t)
		}
		byTitle[t].Findings = append(byTitle[t].Findings, rec)
	}
	var out []sectionView
	for _, t := range r.set.sections {
		if s := byTitle[t]; s != nil {
			out = append(out, *s)
			delete(byTitle, t)
		}
	}
	for _, t := range order {
		if s := byTitle[t]; s != nil {
			out = append(out, *s)
		}
	}
	return out
}

func newSourceView(s findings.Source) sourceView {
	v := sourceView{Repo: s.Repo, Ref: s.Ref, License: s.License}
	if s.Version != nil {
		v.Version = *s.Version
	}
	if s.CommittedAt != nil {
		v.Date = *s.CommittedAt
		if t, err := time.Parse(time.RFC3339, *s.CommittedAt); err == nil {
			v.Date = t.UTC().Format("2006-01-02 15:04:05 UTC")
		}
	}
	if s.Commit != nil {
		v.Commit = *s.Commit
		v.ShortCommit = v.Commit[:min(12, len(v.Commit))]
		if web := webBase(s.Repo); web != "" {
			v.CommitURL = web + "/commit/" + v.Commit
			if s.License != nil {
				v.LicenseURL = cite.BlobURL(web, v.Commit, s.License.Path)
			}
		}
	}
	return v
}

// webBase returns repo when it is a web URL (links can be made to it),
// else "".
func webBase(repo string) string {
	if strings.HasPrefix(repo, "https://") || strings.HasPrefix(repo, "http://") {
		return strings.TrimSuffix(repo, "/")
	}
	return ""
}

// markdown executes a Markdown template; html selects the page flavour
// (heading attributes, excerpts by reference) over findings.md's.
func (r *renderer) markdown(name string, v *view, html bool) ([]byte, error) {
	t, err := r.set.md.Clone()
	if err != nil {
		return nil, err
	}
	t.Funcs(texttemplate.FuncMap(r.funcs(html)))
	vv := *v
	vv.HTML = html
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, name, &vv); err != nil {
		return nil, fmt.Errorf("render %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// layoutView is the data of layout.html.tmpl.
type layoutView struct {
	Title string
	// Heading is the page's own heading (for the title element).
	Heading string
	Nav     []navItem
	Source  sourceView
	// Body is the page's HTML as goldmark wrote it.
	Body        htmltemplate.HTML
	LicenseFile bool
}

// navItem is one link of the page navigation.
type navItem struct {
	Title   string
	File    string
	Current bool
}

// htmlPage renders a Markdown template to HTML as the page file and wraps
// it in the layout.
func (r *renderer) htmlPage(name string, p *pageView, heading, file string) ([]byte, error) {
	r.page = file
	defer func() { r.page = "" }()
	v := *r.view
	v.Page = p
	md, err := r.markdown(name, &v, true)
	if err != nil {
		return nil, err
	}
	body, err := r.md.convert(md)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", file, err)
	}
	lv := layoutView{
		Heading:     heading,
		Source:      r.view.Source,
		Body:        htmltemplate.HTML(body), // goldmark output: escaped, no raw HTML
		LicenseFile: r.view.LicenseFile,
	}
	lv.Title = heading + " · " + findings.DefaultPin().Name
	if r.view.Source.Version != "" {
		lv.Title += " " + r.view.Source.Version
	}
	lv.Nav = append(slices.Clone(r.nav), navItem{Title: "Key findings", File: "index.html", Current: file == "index.html"})
	for _, pg := range r.view.Pages {
		lv.Nav = append(lv.Nav, navItem{Title: pg.Title, File: pg.File, Current: file == pg.File})
	}
	lv.Nav = append(lv.Nav, navItem{Title: "Routes", File: routesFile, Current: file == routesFile})
	var b bytes.Buffer
	if err := r.set.html.ExecuteTemplate(&b, layoutTemplate, lv); err != nil {
		return nil, fmt.Errorf("render %s: %w", file, err)
	}
	return b.Bytes(), nil
}
