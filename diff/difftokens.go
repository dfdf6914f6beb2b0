package diff

import (
	"fmt"
	"strings"

	"github.com/keyfindings/keyfindings/findings"
)

// TokenChange is the token count of a record whose excerpt the model
// reads (Record.Tokens) on each side of a diff; Old or New is nil where
// that side has no located record with a count.
type TokenChange struct {
	Old *findings.Tokens `json:"old"`
	New *findings.Tokens `json:"new"`
	// O200kBase and Cl100kBase are New minus Old (a missing side counts 0).
	O200kBase  int `json:"o200k_base"`
	Cl100kBase int `json:"cl100k_base"`
}

// tokenChange returns the token change of a finding whose record carries
// counts on either side, or nil: when neither does, or when the bytes are
// the same (unchanged, moved), where the counts cannot differ.
func tokenChange(fd *FindingDiff) *TokenChange {
	count := func(r *findings.Record) *findings.Tokens {
		if r == nil || !r.Located() {
			return nil
		}
		return r.Location.Tokens
	}
	o, n := count(fd.Old), count(fd.New)
	if (o == nil && n == nil) || fd.Status == Unchanged || fd.Status == Moved {
		return nil
	}
	tc := &TokenChange{Old: o, New: n}
	if o != nil {
		tc.O200kBase, tc.Cl100kBase = -o.O200kBase, -o.Cl100kBase
	}
	if n != nil {
		tc.O200kBase += n.O200kBase
		tc.Cl100kBase += n.Cl100kBase
	}
	return tc
}

// Signed writes n with its sign: "+312", "-4", "±0".
func Signed(n int) string {
	switch {
	case n > 0:
		return fmt.Sprintf("+%d", n)
	case n < 0:
		return fmt.Sprint(n)
	}
	return "±0"
}

// Text describes the change in one line, as
// "+312 o200k_base tokens (1200 → 1512); +298 cl100k_base (1190 → 1488)".
func (tc *TokenChange) Text() string {
	count := func(t *findings.Tokens, o200k bool) string {
		switch {
		case t == nil:
			return "none"
		case o200k:
			return fmt.Sprint(t.O200kBase)
		}
		return fmt.Sprint(t.Cl100kBase)
	}
	return fmt.Sprintf("%s o200k_base tokens (%s → %s); %s cl100k_base (%s → %s)",
		Signed(tc.O200kBase), count(tc.Old, true), count(tc.New, true),
		Signed(tc.Cl100kBase), count(tc.Old, false), count(tc.New, false))
}

// RouteChange is how the token total of one representative model's route
// (see package route) differs between the two sides of a diff.
type RouteChange struct {
	Model    string `json:"model"`
	Provider string `json:"provider"`
	// Old and New are the totals of the counted sections; nil where the
	// route could not be evaluated, and the problem says why.
	Old        *findings.Tokens `json:"old"`
	New        *findings.Tokens `json:"new"`
	OldProblem string           `json:"old_problem,omitempty"`
	NewProblem string           `json:"new_problem,omitempty"`
	// O200kBase is New minus Old in o200k_base tokens (0 unless both
	// sides were evaluated).
	O200kBase int `json:"o200k_base"`
	// Parts are the records whose counted tokens differ, which make up
	// the change, in the new route's order.
	Parts []RoutePart `json:"parts"`
}

// RoutePart is one record's share of a route's change, in o200k_base
// tokens.
type RoutePart struct {
	Record string `json:"record"`
	// Label says what the record is in the route: "prompt gpt.txt",
	// "bash description".
	Label string `json:"label"`
	// Old and New are the tokens the route counted from the record; nil
	// where it did not count it.
	Old *int `json:"old"`
	New *int `json:"new"`
	// Change is "rewritten" (counted on both sides, with other bytes),
	// "now counted" or "no longer counted" (the route chose it, or it
	// existed, on one side only).
	Change string `json:"change"`
}

// Route part changes.
const (
	PartRewritten = "rewritten"
	PartAdded     = "now counted"
	PartDropped   = "no longer counted"
)

// Differs reports whether the route's total or its evaluation differs.
func (c *RouteChange) Differs() bool {
	switch {
	case (c.Old == nil) != (c.New == nil):
		return true
	case c.Old == nil:
		return c.OldProblem != c.NewProblem
	}
	return *c.Old != *c.New || len(c.Parts) > 0
}

// Delta returns the part's change in o200k_base tokens.
func (p RoutePart) Delta() int {
	d := 0
	if p.Old != nil {
		d -= *p.Old
	}
	if p.New != nil {
		d += *p.New
	}
	return d
}

// Text describes the part: "bash description rewritten (+300)".
func (p RoutePart) Text() string {
	return fmt.Sprintf("%s %s (%s)", p.Label, p.Change, Signed(p.Delta()))
}

// Total describes the route's total: "+312 o200k_base tokens (1234 →
// 1546)", or what could not be evaluated.
func (c *RouteChange) Total() string {
	switch {
	case c.Old != nil && c.New != nil:
		return fmt.Sprintf("%s o200k_base tokens (%d → %d)", Signed(c.O200kBase), c.Old.O200kBase, c.New.O200kBase)
	case c.New != nil:
		return fmt.Sprintf("%d o200k_base tokens; not evaluated in the old source: %s", c.New.O200kBase, c.OldProblem)
	case c.Old != nil:
		return fmt.Sprintf("%d o200k_base tokens in the old source; not evaluated in the new one: %s", c.Old.O200kBase, c.NewProblem)
	}
	return "not evaluated: " + c.NewProblem
}

// Text describes the route change in one line, as "gpt-5 (openai): +312
// o200k_base tokens (1234 → 1546); bash description rewritten (+300)".
func (c *RouteChange) Text() string {
	s := c.Model
	if c.Provider != "" {
		s += " (" + c.Provider + ")"
	}
	s += ": " + c.Total()
	var parts []string
	for _, p := range c.Parts {
		parts = append(parts, p.Text())
	}
	if len(parts) > 0 {
		s += "; " + strings.Join(parts, ", ")
	}
	return s
}

// shownRoutes returns the routes a report lists: all, or with
// opts.Changed those that differ.
func (d *Diff) shownRoutes(opts ReportOptions) []*RouteChange { return differing(d.Routes, opts) }
