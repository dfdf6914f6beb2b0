package locate

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sync"

	"github.com/keyfindings/keyfindings/findings"
)

// tree-sitter takes about 3 ms to compile any query against the
// TypeScript grammar (it analyses the whole parse table each time), then
// one to several ms more for each pattern step that has children, so
// compiling every query of the built-in catalog, all its shapes' and
// facts', takes 3 s of CPU. What compiling tells keyfindings beyond the
// compiled form (the captures, the predicates, hence the anchors) is
// known without compiling: for the built-in catalog from an entry
// embedded in the binary, for any other text from the disk cache (by
// query text and build). Such a query is compiled only when it first
// runs, with the other texts of its shape (storeKnown): a shape that is
// never tried, or whose records come from the cache, is never compiled.
// A text with no entry anywhere is compiled before any source is read,
// so an invalid one is reported up front.

// queryMeta is what compiling a query told.
type queryMeta struct {
	Format   string       `json:"format"`
	Text     string       `json:"text"`
	Captures []string     `json:"captures"`
	Patterns [][]predMeta `json:"patterns"`
}

// predMeta is a predicate as data.
type predMeta struct {
	Op      string   `json:"op"`
	Negate  bool     `json:"negate,omitempty"`
	Capture string   `json:"capture"`
	Other   string   `json:"other,omitempty"`
	Values  []string `json:"values,omitempty"`
}

const queryMetaFormat = "keyfindings/query-cache/1"

// The built-in catalog's query texts are known before any run: what
// compiling each alone tells is embedded (querymeta.json, by the sha256
// of the text), so a first build compiles only the queries it runs, in
// groups per shape (joinKnown). TestEmbeddedQueryMeta keeps the file
// equal to what this build's grammar says; `go test ./locate -run
// TestEmbeddedQueryMeta -update` rewrites it after a query changes. A
// text without an entry is compiled before any source is read, as any
// text of a catalog given with --defs.
//
//go:embed querymeta.json
var embeddedMetaJSON []byte

// embeddedMetaFile is the form of querymeta.json.
type embeddedMetaFile struct {
	Format  string                  `json:"format"`
	Queries map[string]embeddedMeta `json:"queries"`
}

// embeddedMeta is a queryMeta without its text, which its key hashes.
type embeddedMeta struct {
	Captures []string     `json:"captures"`
	Patterns [][]predMeta `json:"patterns"`
}

// useEmbeddedMeta lets tests compile the built-in catalog as any other.
var useEmbeddedMeta = true

var embeddedMetas = sync.OnceValue(func() map[string]embeddedMeta {
	var f embeddedMetaFile
	if json.Unmarshal(embeddedMetaJSON, &f) != nil || f.Format != queryMetaFormat {
		return nil
	}
	return f.Queries
})

// textKey is a query text's key in querymeta.json.
func textKey(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// embeddedQuery is text rebuilt from its embedded entry; nil without one.
func embeddedQuery(text string) *query {
	if !useEmbeddedMeta {
		return nil
	}
	m, ok := embeddedMetas()[textKey(text)]
	if !ok {
		return nil
	}
	q, err := queryFromMeta(queryMeta{Format: queryMetaFormat, Text: text, Captures: m.Captures, Patterns: m.Patterns})
	if err != nil {
		return nil
	}
	return q
}

func (q *query) meta() queryMeta {
	m := queryMeta{Format: queryMetaFormat, Text: q.text, Captures: q.captures, Patterns: [][]predMeta{}}
	for _, list := range q.preds {
		ps := []predMeta{}
		for _, p := range list {
			ps = append(ps, predMeta{Op: p.op, Negate: p.negate, Capture: p.capture, Other: p.other, Values: p.values})
		}
		m.Patterns = append(m.Patterns, ps)
	}
	return m
}

// queryFromMeta rebuilds a query from what compiling it told, without
// compiling it: its group of one compiles it when it first runs, and
// checks that it compiles to the captures and patterns the entry says.
func queryFromMeta(m queryMeta) (*query, error) {
	g := &queryGroup{text: m.Text, known: true, captures: m.Captures, patterns: len(m.Patterns), widened: true}
	q := &query{text: m.Text, group: g, captures: m.Captures}
	for _, list := range m.Patterns {
		var preds []predicate
		for _, p := range list {
			pr := predicate{op: p.Op, negate: p.Negate, capture: p.Capture, other: p.Other, values: p.Values}
			switch {
			case p.Op == "match" && len(p.Values) == 1:
				re, err := regexp.Compile(p.Values[0])
				if err != nil {
					return nil, err
				}
				pr.re = re
			case p.Op == "eq" && (p.Other != "" || len(p.Values) == 1):
			case p.Op == "any-of":
			default:
				return nil, fmt.Errorf("bad cached predicate %+v", p)
			}
			preds = append(preds, pr)
		}
		q.preds = append(q.preds, preds)
	}
	q.setAnchors()
	g.members = []*query{q}
	return q, nil
}

// catalogQueries lists the distinct query texts of a catalog, every
// shape's included.
func catalogQueries(cat *findings.Catalog) []string {
	seen := map[string]bool{}
	var out []string
	add := func(t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	var facts func([]findings.FactSpec)
	facts = func(fs []findings.FactSpec) {
		for _, f := range fs {
			add(f.Query)
			facts(f.Fields)
		}
	}
	for _, d := range cat.Definitions {
		for _, form := range d.Forms() {
			add(form.Query)
			facts(form.Facts)
		}
	}
	return out
}

func (d *diskCache) queryFile(text string) string {
	return filepath.Join(d.dir, "queries", textKey(text)+".json")
}

// storeKnown makes compileQuery answer, without compiling, each text of
// texts whose compilation is known already (knownQueries), joined in a
// group per shape that compiles when it first runs (joinKnown): a shape
// never tried is never compiled. It returns the other texts, which must
// be compiled.
func storeKnown(cat *findings.Catalog, texts []string, d *diskCache) []string {
	known := knownQueries(texts, d)
	want := map[string]bool{}
	for t := range known {
		want[t] = true
	}
	for _, g := range partition(cat, texts, want, true) {
		qs := make([]*query, len(g))
		for i, t := range g {
			qs[i] = known[t]
		}
		joinKnown(qs)
		for _, q := range qs {
			storeQuery(q)
		}
	}
	var rest []string
	for _, t := range texts {
		if known[t] == nil {
			rest = append(rest, t)
		}
	}
	return rest
}

// knownQueries returns, for each text of texts this process has not
// compiled, the query rebuilt from what compiling it told: the entry
// embedded in the binary for the built-in catalog's texts, else the disk
// cache's (d may be nil). The texts it does not return must be compiled.
func knownQueries(texts []string, d *diskCache) map[string]*query {
	known := map[string]*query{}
	for _, t := range texts {
		if _, done := compiledQueries.Load(t); done {
			continue
		}
		if q := embeddedQuery(t); q != nil {
			known[t] = q
		} else if d != nil {
			if q := d.loadQuery(t); q != nil {
				known[t] = q
			}
		}
	}
	return known
}

func (d *diskCache) loadQuery(text string) *query {
	var m queryMeta
	if !readEntry(d.queryFile(text), &m) || m.Format != queryMetaFormat || m.Text != text {
		return nil
	}
	q, err := queryFromMeta(m)
	if err != nil {
		return nil
	}
	return q
}

// storeQueries writes the cache entries of texts, which compiled.
func (d *diskCache) storeQueries(texts []string) {
	for _, t := range texts {
		v, ok := compiledQueries.Load(t)
		if !ok {
			continue
		}
		e := v.(*queryOnce)
		if e.q == nil {
			continue
		}
		d.writeEntry(d.queryFile(t), e.q.meta())
	}
}
