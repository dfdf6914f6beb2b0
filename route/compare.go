package route

import (
	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
)

// Totals evaluates the route of every model in cfg.Models on doc. A route
// that cannot be evaluated (a record it needs is not located) has a nil
// Route and its error.
func Totals(doc *findings.Document, cfg *Config) []Result {
	out := make([]Result, len(cfg.Models))
	// Indexing normalizes every record's facts: once for all the models.
	ix := index(doc)
	for i, m := range cfg.Models {
		out[i].Model = m
		out[i].Route, out[i].Err = evaluate(ix, cfg, m)
	}
	return out
}

// Result is the route of one representative model, or why there is none.
type Result struct {
	Model Model
	Route *Route
	Err   error
}

// CompareRoutes sets d.Routes: for each representative model, its route's
// token total on both sides of d and the records whose counted tokens
// differ, which make up the change. A model whose route can be evaluated
// on neither side (documents of another catalog) is left out.
func CompareRoutes(d *diff.Diff, cfg *Config) {
	CompareTotals(d, cfg, Totals(d.Old, cfg), Totals(d.New, cfg))
}

// CompareTotals is CompareRoutes with the routes of both sides evaluated
// already: old and new are Totals(d.Old, cfg) and Totals(d.New, cfg).
func CompareTotals(d *diff.Diff, cfg *Config, old, new []Result) {
	d.Routes = nil
	for i, m := range cfg.Models {
		if old[i].Route != nil || new[i].Route != nil {
			d.Routes = append(d.Routes, compareRoute(m, old[i], new[i]))
		}
	}
}

func compareRoute(m Model, o, n Result) *diff.RouteChange {
	c := &diff.RouteChange{Model: m.ID, Provider: m.Provider, Parts: []diff.RoutePart{}}
	var oldParts, newParts []Part
	if o.Route != nil {
		c.Old, oldParts = o.Route.Tokens, o.Route.Counted
	} else {
		c.OldProblem = o.Err.Error()
	}
	if n.Route != nil {
		c.New, newParts = n.Route.Tokens, n.Route.Counted
	} else {
		c.NewProblem = n.Err.Error()
	}
	if c.Old != nil && c.New != nil {
		c.O200kBase = c.New.O200kBase - c.Old.O200kBase
		c.Parts = partChanges(oldParts, newParts)
	}
	return c
}

// partChanges pairs the counted records by id and lists those whose
// counts differ: the new route's order first, then those it dropped.
func partChanges(old, new []Part) []diff.RoutePart {
	oldBy := map[string]Part{}
	for _, p := range old {
		oldBy[p.Record] = p
	}
	seen := map[string]bool{}
	var out []diff.RoutePart
	for _, p := range new {
		seen[p.Record] = true
		n := p.Tokens.O200kBase
		rp := diff.RoutePart{Record: p.Record, Label: p.Label, New: &n, Change: diff.PartAdded}
		if op, ok := oldBy[p.Record]; ok {
			o := op.Tokens.O200kBase
			if o == n {
				continue
			}
			rp.Old, rp.Change = &o, diff.PartRewritten
		}
		out = append(out, rp)
	}
	for _, p := range old {
		if !seen[p.Record] {
			o := p.Tokens.O200kBase
			out = append(out, diff.RoutePart{Record: p.Record, Label: p.Label, Old: &o, Change: diff.PartDropped})
		}
	}
	return out
}
