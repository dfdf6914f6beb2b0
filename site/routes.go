package site

import (
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/route"
)

// routesFile is the routes page of a site.
const routesFile = "routes.html"

// embeddedRoutes parses the routes data built into keyfindings once.
var embeddedRoutes = sync.OnceValues(func() (*route.Config, error) {
	return route.ParseConfig(findings.RoutesData(), "findings/routes.yaml")
})

// routesConfig returns the routes data of opts, else the embedded one.
func routesConfig(opts Options) (*route.Config, error) {
	if opts.Routes != nil {
		return opts.Routes, nil
	}
	return embeddedRoutes()
}

// routesView is the data of routes.md.tmpl (.Routes).
type routesView struct {
	// Rows are the representative models in the routes data's order.
	Rows []routeRow
	// NotCounted are the budget sections of the routes data that no
	// record with a token count stands for yet.
	NotCounted []string
	// RunTime are the conditions the decisions rest on that only a
	// running session settles, each with the record that states it.
	RunTime []runTimeNote
}

// routeRow is one representative model's route.
type routeRow struct {
	Model, Provider string
	// Anchor is the id of the model's section on the page.
	Anchor string
	// Estimate is set when the model's tokenizer is not public, so an
	// o200k_base count only estimates its own.
	Estimate bool
	// Problem says why the route could not be evaluated; the fields
	// below are then empty.
	Problem string
	Route   *route.Route
	// Prompt is the chosen file's name ("" when undecided), PromptHref
	// its record, RoutingHref the routing rules' record.
	Prompt, PromptHref, RoutingHref string
	// Undecided says why no prompt file could be chosen.
	Undecided string
	// Yes, Depends and No are the registry's tools by whether they are
	// advertised.
	Yes, Depends, No []toolView
	// RegistryHref and AdvertisingHref link the records that decide the
	// tool set.
	RegistryHref, AdvertisingHref string
	Sections                      []route.SectionTokens
	Total                         *findings.Tokens
}

// toolView is one tool of a route.
type toolView struct {
	ID string
	// Href links the tool's description record; "" when it has none.
	Href   string
	Tokens *findings.Tokens
	// Rule is the rule that decided it, for tools not advertised or
	// advertised only under run-time conditions; Unknown says what the
	// records leave open in it.
	Rule, Unknown string
}

// runTimeNote is one condition a route leaves to run time.
type runTimeNote struct {
	Record, Href, When string
}

// routes shows the representative models' routes on the records of the
// renderer's document, as route.Totals evaluated them (totals, which it
// does not modify).
func (r *renderer) routes(totals []route.Result, cfg *route.Config) *routesView {
	v := &routesView{}
	used := map[string]bool{}
	runTime := map[string]bool{}
	for _, res := range totals {
		row := routeRow{Model: res.Model.ID, Provider: res.Model.Provider, Estimate: res.Model.Tokenizer != "o200k_base"}
		row.Anchor = uniqueAnchor("route-"+slugify(res.Model.ID), used)
		if res.Err != nil {
			row.Problem = res.Err.Error()
			v.Rows = append(v.Rows, row)
			continue
		}
		rt := res.Route
		row.Route, row.Sections, row.Total = rt, rt.Sections, rt.Tokens
		r.promptCells(&row, rt)
		r.toolCells(&row, rt, cfg)
		for _, note := range rt.RunTime {
			id, when, _ := strings.Cut(note, ": ")
			if !runTime[id] {
				runTime[id] = true
				v.RunTime = append(v.RunTime, runTimeNote{Record: id, Href: r.href(id), When: when})
			}
		}
		v.Rows = append(v.Rows, row)
	}
	for _, sec := range cfg.Sections {
		if !r.counted(sec.Definition) {
			v.NotCounted = append(v.NotCounted, sec.Name)
		}
	}
	return v
}

// counted reports whether the document has a located record with a
// token count of the definition def.
func (r *renderer) counted(def string) bool {
	for _, rec := range r.doc.Findings {
		if (rec.ID == def || rec.Definition == def) && rec.Located() && rec.Location.Tokens != nil {
			return true
		}
	}
	return false
}

func (r *renderer) promptCells(row *routeRow, rt *route.Route) {
	p := rt.Prompt
	row.RoutingHref = r.href(p.Cites[0].Record)
	if p.Path == "" {
		row.Undecided = strings.Join(p.Undecided, "; ")
		return
	}
	row.Prompt = path.Base(p.Path)
	if len(p.Cites) > 1 {
		row.PromptHref = r.href(p.Cites[len(p.Cites)-1].Record)
	}
}

func (r *renderer) toolCells(row *routeRow, rt *route.Route, cfg *route.Config) {
	row.RegistryHref = r.href(cfg.Definitions.Registry)
	row.AdvertisingHref = r.href(cfg.Definitions.Advertising)
	for _, t := range rt.Tools {
		tv := toolView{ID: t.ID, Tokens: t.Tokens}
		if t.Description != "" {
			tv.Href = r.href(t.Description)
		}
		if len(t.Steps) > 0 {
			// The first step left open decides a tool that depends; the
			// last one any other.
			s := t.Steps[len(t.Steps)-1]
			for _, st := range t.Steps {
				if st.Outcome == "unknown" {
					s = st
					break
				}
			}
			tv.Rule, tv.Unknown = s.Rule, strings.Join(s.Unknown, "; ")
		}
		switch t.Advertised {
		case "yes":
			row.Yes = append(row.Yes, tv)
		case "no":
			row.No = append(row.No, tv)
		default:
			row.Depends = append(row.Depends, tv)
		}
	}
}

// href links a record's full entry on its area page; "" when the
// document has no such record.
func (r *renderer) href(id string) string {
	rec := r.records[id]
	if rec == nil {
		return ""
	}
	return rec.Page + ".html#" + id
}

// uniqueAnchor returns base, or base-2, base-3 … when it is taken, and
// marks it taken.
func uniqueAnchor(base string, used map[string]bool) string {
	id := base
	for n := 2; used[id]; n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	used[id] = true
	return id
}
