package locate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/keyfindings/keyfindings/findings"
)

// tree-sitter takes about 5 ms to compile one query against the TypeScript
// grammar (it analyses the whole parse table each time), so compiling a
// catalog of a hundred queries costs half a second before any file is
// read. What compiling tells keyfindings beyond the compiled form (the
// captures, the predicates, hence the anchors) is kept in the disk cache
// by query text and build: a later run checks its definitions against
// that without compiling, and compiles a query only when it runs it, which
// with its records cached is never. A query that never compiled has no
// entry, so an invalid one is still reported before any source is read.

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
	g := &queryGroup{text: m.Text, known: true, captures: m.Captures, patterns: len(m.Patterns)}
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
				if p.Other == "" && !p.Negate {
					q.anchors = append(q.anchors, p.Values[0])
				}
			case p.Op == "any-of":
			default:
				return nil, fmt.Errorf("bad cached predicate %+v", p)
			}
			preds = append(preds, pr)
		}
		q.preds = append(q.preds, preds)
	}
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
	sum := sha256.Sum256([]byte(text))
	return filepath.Join(d.dir, "queries", hex.EncodeToString(sum[:])+".json")
}

// preloadQueries makes compileQuery answer from the disk cache for every
// text in texts that has an entry, and returns the texts that have none.
func (d *diskCache) preloadQueries(texts []string) []string {
	var missing []string
	for _, t := range texts {
		q := d.loadQuery(t)
		if q == nil {
			missing = append(missing, t)
			continue
		}
		e := &queryOnce{}
		e.once.Do(func() { e.q = q })
		// A query this process compiled already stays as it is.
		compiledQueries.LoadOrStore(t, e)
	}
	return missing
}

func (d *diskCache) loadQuery(text string) *query {
	data, err := os.ReadFile(d.queryFile(text))
	if err != nil {
		return nil
	}
	var m queryMeta
	if json.Unmarshal(data, &m) != nil || m.Format != queryMetaFormat || m.Text != text {
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
		if data, err := json.Marshal(e.q.meta()); err == nil {
			d.write(d.queryFile(t), data)
		}
	}
}
