package extract

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/keyfindings/keyfindings/findings"
)

// A definition's records at a snapshot depend on the definition and on the
// files locating it reads, nothing else: the files at its path and
// candidates, the files its spans cite (file:), and, when its files are
// all absent, the files the tree search finds. Of a record only permalink
// names the commit. So the records are kept without permalinks, under a
// key made of the definition and what its paths hold, with the list of
// what else was read (deps); a later snapshot whose paths and deps hold
// the same gets the same records, with its own permalinks, and reads and
// parses nothing for that definition.

// dep is one input of a cached result.
type dep struct {
	// Path is a repo-relative path, "" for the tree search.
	Path string `json:"path"`
	// ID is what the path held (run.lookup), or the search's id.
	ID string `json:"id"`
}

// cachedResult is one definition's records for one set of inputs.
type cachedResult struct {
	Deps    []dep              `json:"deps"`
	Records []*findings.Record `json:"records"`
}

// resultCache holds cached results in memory.
type resultCache struct {
	mu      sync.Mutex
	entries map[string]*resultEntry

	// hits and misses count lookups, for tests and benchmarks.
	hits, misses atomic.Int64
}

// resultEntry holds the results computed under one key. Its lock is held
// while a result is looked up or computed, so two runs needing the same
// one compute it once.
type resultEntry struct {
	mu       sync.Mutex
	variants []*cachedResult
}

// maxVariants bounds the results kept per key: they differ only when a
// definition's cited or searched files change while its own do not.
const maxVariants = 4

func newResultCache() *resultCache { return &resultCache{entries: map[string]*resultEntry{}} }

func (c *resultCache) entry(key string) *resultEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		e = &resultEntry{}
		c.entries[key] = e
	}
	return e
}

// resultKey is the key of a definition's result: its hash and what its
// path and candidates hold.
func resultKey(cd *compiledDef, r *run) (string, bool, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", cd.hash)
	absent := true
	for _, p := range cd.paths() {
		id, err := r.lookup(p)
		if err != nil {
			return "", false, err
		}
		if id != "" {
			absent = false
		}
		fmt.Fprintf(h, "%s\x00%s\n", p, id)
	}
	return hex.EncodeToString(h.Sum(nil)), absent, nil
}

// valid reports whether every dep of cd's result holds the same in r.
func (r *run) valid(cd *compiledDef, deps []dep) (bool, error) {
	for _, d := range deps {
		id := ""
		if d.Path == "" {
			s, err := r.searchFor(cd)
			if err != nil {
				return false, err
			}
			id = s.id
		} else {
			var err error
			if id, err = r.lookup(d.Path); err != nil {
				return false, err
			}
		}
		if id != d.ID {
			return false, nil
		}
	}
	return true, nil
}

// publish copies cached records into a document of r: the records are
// shared by every run that uses them, the copies are the caller's.
func (r *run) publish(recs []*findings.Record) []*findings.Record {
	out := make([]*findings.Record, len(recs))
	commit := r.snap.Commit()
	for i, rec := range recs {
		c := cloneRecord(rec)
		if c.Located() && commit != "" && r.meta.WebURL != "" && c.Path != nil && c.Lines != nil {
			c.Permalink = strp(permalink(r.meta.WebURL, commit, *c.Path, *c.Lines))
		}
		out[i] = c
	}
	return out
}

func permalink(web, commit, path string, l findings.Lines) string {
	return fmt.Sprintf("%s/blob/%s/%s#L%d-L%d", web, commit, path, l.Start, l.End)
}

// cachable returns recs as kept: without permalinks, and only when they
// read back from JSON unchanged (so memory and disk give the same).
func cachable(recs []*findings.Record) ([]*findings.Record, bool) {
	kept := make([]*findings.Record, len(recs))
	for i, rec := range recs {
		c := cloneRecord(rec)
		c.Permalink = nil
		kept[i] = c
	}
	data, err := json.Marshal(kept)
	if err != nil {
		return nil, false
	}
	var back []*findings.Record
	if json.Unmarshal(data, &back) != nil || !reflect.DeepEqual(back, kept) {
		return nil, false
	}
	return kept, true
}

// cloneRecord copies a record deeply enough that changing the copy never
// changes the original.
func cloneRecord(r *findings.Record) *findings.Record {
	c := *r
	for _, p := range []**string{&c.Caveat, &c.Path, &c.MovedFrom, &c.Blob, &c.SHA256, &c.Excerpt, &c.Permalink, &c.Review, &c.Problem} {
		if *p != nil {
			*p = strp(**p)
		}
	}
	if r.Lines != nil {
		l := *r.Lines
		c.Lines = &l
	}
	if r.Facts != nil {
		c.Facts = findings.Facts(cloneValue(map[string]any(r.Facts)).(map[string]any))
	}
	if r.Candidates != nil {
		c.Candidates = append(make([]findings.Candidate, 0, len(r.Candidates)), r.Candidates...)
	}
	if r.Warnings != nil {
		c.Warnings = append(make([]string, 0, len(r.Warnings)), r.Warnings...)
	}
	return &c
}

func cloneValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = cloneValue(e)
		}
		return m
	case findings.Facts:
		return findings.Facts(cloneValue(map[string]any(v)).(map[string]any))
	case []any:
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = cloneValue(e)
		}
		return l
	}
	return v
}
