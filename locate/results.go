package locate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/keyfindings/keyfindings/cite"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/buildid"
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
	// Shape names the shape a tree search was for ("" without shapes).
	Shape string `json:"shape,omitempty"`
}

// cachedResult is one definition's records for one set of inputs.
type cachedResult struct {
	Deps    []dep              `json:"deps"`
	Records []*findings.Record `json:"records"`
	// raw is the result's JSON once made (see encoded), so an entry
	// written again as variants are added encodes only the new one.
	raw []byte
}

// encoded returns the result's JSON, as json.Marshal gives it.
func (v *cachedResult) encoded() ([]byte, error) {
	if v.raw == nil {
		data, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		v.raw = data
	}
	return v.raw, nil
}

// newCachedResult is the result of records kept (cachable) as JSON
// encodes them in recsJSON, read with deps.
func newCachedResult(deps []dep, kept []*findings.Record, recsJSON []byte) (*cachedResult, error) {
	depsJSON, err := json.Marshal(deps)
	if err != nil {
		return nil, err
	}
	raw := make([]byte, 0, len(depsJSON)+len(recsJSON)+len(`{"deps":,"records":}`))
	raw = append(append(append(raw, `{"deps":`...), depsJSON...), `,"records":`...)
	raw = append(append(raw, recsJSON...), '}')
	return &cachedResult{Deps: deps, Records: kept, raw: raw}, nil
}

// resultCache holds cached results in memory and, when dir is set, on
// disk. In memory it keeps only the entries the last keptCalls Extract
// calls used: consecutive commits (a run of releases, a log) share most
// of their keys, and a run over a thousand releases would otherwise hold
// every record it ever located (an entry dropped is read back from disk,
// or located again, when a later commit needs it).
type resultCache struct {
	mu      sync.Mutex
	entries map[string]*resultEntry
	disk    *diskCache
	// call counts the Extract calls begun; each entry remembers the last
	// call that used it (under mu).
	call int64

	// hits and misses count lookups, for tests and benchmarks.
	hits, misses atomic.Int64
}

// resultEntry holds the results computed under one key. Its lock is held
// while a result is looked up or computed, so two runs needing the same
// one compute it once.
type resultEntry struct {
	mu       sync.Mutex
	loaded   bool // the disk was consulted
	variants []*cachedResult
	// used is the last Extract call that used the entry (under
	// resultCache.mu).
	used int64
}

// keptCalls is how many Extract calls' entries the memory keeps: those
// of the commit being extracted and a few before it, enough for the next
// one to find what it shares with them.
const keptCalls = 4

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
	e.used = c.call
	return e
}

// begin starts an Extract call: the entries no call among the last
// keptCalls used are dropped from memory (a call holding one still has
// it; the next to ask gets a new entry, loaded from disk).
func (c *resultCache) begin() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.call++
	for key, e := range c.entries {
		if c.call-e.used > keptCalls {
			delete(c.entries, key)
		}
	}
}

// resultKey is the key of a definition's result: its hash (which covers
// every shape) and what the paths and candidates of all its shapes hold.
// search lists the shapes whose files are all absent: locating them
// searches the tree.
func resultKey(cd *compiledDef, r *run, off searchOff) (key string, search []*compiledShape, err error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", cd.hash)
	if off.all {
		// Outside its since/until range the definition is looked for at
		// its own paths only: another result than a search's.
		fmt.Fprintf(h, "no tree search\n")
	}
	for _, s := range cd.shapes {
		if off.shapes[s] {
			// Likewise a shape before its search_from.
			fmt.Fprintf(h, "no tree search for shape %s\n", s.def.ShapeName)
		}
	}
	for _, p := range cd.paths() {
		id, err := r.lookup(p)
		if err != nil {
			return "", nil, err
		}
		fmt.Fprintf(h, "%s\x00%s\n", p, id)
	}
	// The shapes to search for up front, in one walk of the tree: those
	// before which every shape's files are absent too (a shape whose file
	// is present may well decide, and a later shape is then searched for
	// only if it does not; see run.searchFor).
	for _, s := range cd.shapes {
		absent, err := r.absent(s)
		if err != nil {
			return "", nil, err
		}
		if !absent || off.all {
			break
		}
		if off.shapes[s] {
			// Looked for at its paths only, where nothing is: the
			// next shape is tried.
			continue
		}
		search = append(search, s)
	}
	return hex.EncodeToString(h.Sum(nil)), search, nil
}

// absent reports whether none of the shape's own files (path and
// candidates) is in r.
func (r *run) absent(s *compiledShape) (bool, error) {
	for _, p := range s.paths() {
		id, err := r.lookup(p)
		if err != nil {
			return false, err
		}
		if id != "" {
			return false, nil
		}
	}
	return true, nil
}

// valid reports whether every dep of cd's result holds the same in r.
func (r *run) valid(cd *compiledDef, deps []dep) (bool, error) {
	for _, d := range deps {
		id := ""
		if d.Path == "" {
			cs := cd.shape(d.Shape)
			if cs == nil {
				return false, nil
			}
			s, err := r.searchFor(cs)
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
		c := rec.Clone()
		if c.Location != nil && commit != "" && r.meta.WebURL != "" {
			// As record makes it.
			cite := cite.Citation{Path: c.Location.Path, Start: c.Location.Lines.Start, End: c.Location.Lines.End, Commit: commit, WebURL: r.meta.WebURL}
			c.Location.Permalink = cite.Permalink()
		}
		out[i] = c
	}
	return out
}

// cachable returns recs as kept, with their JSON: without permalinks, and
// only when they read back from JSON unchanged (so memory and disk give
// the same).
func cachable(recs []*findings.Record) ([]*findings.Record, []byte, bool) {
	kept := make([]*findings.Record, len(recs))
	for i, rec := range recs {
		c := rec.Clone()
		if c.Location != nil {
			c.Location.Permalink = ""
		}
		kept[i] = c
	}
	data, err := json.Marshal(kept)
	if err != nil {
		return nil, nil, false
	}
	var back []*findings.Record
	if json.Unmarshal(data, &back) != nil || !reflect.DeepEqual(back, kept) {
		return nil, nil, false
	}
	return kept, data, true
}

// diskCache keeps cached results as one small JSON file per key under
// <dir>/<build>/, where build names the keyfindings executable that wrote
// them: a rebuilt keyfindings never reads another build's results.
type diskCache struct {
	root, dir string
	pruneOnce sync.Once
	// dirs holds the directories made so far.
	dirs sync.Map
}

// diskFormat names the layout of an entry file.
const diskFormat = "keyfindings/locate-cache/1"

// diskEntry is the content of an entry file: the results kept under one
// key, most recent first.
type diskEntry struct {
	Format   string          `json:"format"`
	Key      string          `json:"key"`
	Variants []*cachedResult `json:"variants"`
}

func newDiskCache(root string) *diskCache {
	id, err := buildid.ID()
	if err != nil {
		return nil
	}
	sum := sha256.Sum256([]byte(id))
	return &diskCache{root: root, dir: filepath.Join(root, hex.EncodeToString(sum[:8]))}
}

func (d *diskCache) file(key string) string {
	return filepath.Join(d.dir, key[:2], key+".json")
}

// holdsResults reports whether any record is kept on disk: a directory
// named by the first two hex digits of a key.
func (d *diskCache) holdsResults() bool {
	es, _ := os.ReadDir(d.dir)
	for _, e := range es {
		if n := e.Name(); e.IsDir() && len(n) == 2 && strings.Trim(n, "0123456789abcdef") == "" {
			return true
		}
	}
	return false
}

// empty reports whether the cache holds no record, in memory or on disk:
// a first build, which locates every definition.
func (c *resultCache) empty() bool {
	c.mu.Lock()
	n := len(c.entries)
	c.mu.Unlock()
	return n == 0 && (c.disk == nil || !c.disk.holdsResults())
}

// load returns the results stored under key, none when there is no entry
// or it does not read back as one.
func (d *diskCache) load(key string) []*cachedResult {
	var e diskEntry
	if !readEntry(d.file(key), &e) || e.Format != diskFormat || e.Key != key {
		return nil
	}
	for _, v := range e.Variants {
		if v == nil || v.Deps == nil || len(v.Records) == 0 {
			return nil
		}
		for _, r := range v.Records {
			if r == nil || r.ID == "" || r.Status == "" {
				return nil
			}
		}
	}
	return e.Variants
}

// store writes the results kept under key. Failures are ignored: the cache
// only saves work. The entry is the JSON of a diskEntry, made of the
// variants' own JSON, each encoded once (TestStoreEncodesAsEntry).
func (d *diskCache) store(key string, vs []*cachedResult) {
	head, err := json.Marshal(diskEntry{Format: diskFormat, Key: key})
	if err != nil {
		return
	}
	// head ends in `"variants":null}`.
	data := append(bytes.TrimSuffix(head, []byte("null}")), '[')
	for i, v := range vs {
		raw, err := v.encoded()
		if err != nil {
			return
		}
		if i > 0 {
			data = append(data, ',')
		}
		data = append(data, raw...)
	}
	d.write(d.file(key), append(data, "]}"...))
}

// placesFormat names the layout of a lineage file.
const placesFormat = "keyfindings/lineage-cache/1"

// placesEntry is a lineage file: where a commit stands to tag commits.
type placesEntry struct {
	Format string           `json:"format"`
	Commit string           `json:"commit"`
	Places map[string]Place `json:"places"`
}

func (d *diskCache) placesFile(commit string) string {
	return filepath.Join(d.dir, "lineage", commit+".json")
}

// loadPlaces returns the answers kept for commit; nil when there are none
// or the file does not read back as an entry.
func (d *diskCache) loadPlaces(commit string) map[string]Place {
	var e placesEntry
	if !readEntry(d.placesFile(commit), &e) || e.Format != placesFormat || e.Commit != commit {
		return nil
	}
	for _, p := range e.Places {
		if p != AtOrAfter && p != Before {
			return nil
		}
	}
	return e.Places
}

// storePlaces writes the answers kept for commit. Failures are ignored.
func (d *diskCache) storePlaces(commit string, places map[string]Place) {
	d.writeEntry(d.placesFile(commit), placesEntry{Format: placesFormat, Commit: commit, Places: places})
}

// readEntry decodes the JSON entry at file into v; false when there is
// none or it does not decode.
func readEntry(file string, v any) bool {
	data, err := os.ReadFile(file)
	return err == nil && json.Unmarshal(data, v) == nil
}

// writeEntry writes v as JSON at file (see write). Failures are ignored:
// the cache only saves work.
func (d *diskCache) writeEntry(file string, v any) {
	if data, err := json.Marshal(v); err == nil {
		d.write(file, data)
	}
}

// write puts data at file atomically: a temporary file beside it, renamed
// into place, so a reader (another run, at any moment) sees a whole entry
// or none.
func (d *diskCache) write(file string, data []byte) {
	d.pruneOnce.Do(d.prune)
	dir := filepath.Dir(file)
	if _, ok := d.dirs.Load(dir); !ok {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return
		}
		d.dirs.Store(dir, true)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
		os.Remove(tmp.Name())
	}
}

// pruneAge is how long the results of a build no run has used are kept.
const pruneAge = 30 * 24 * time.Hour

// prune marks this build's directory as used and removes the directories
// of builds unused for pruneAge, so old builds' results do not pile up.
func (d *diskCache) prune() {
	now := time.Now()
	if err := os.MkdirAll(d.dir, 0o755); err == nil {
		os.Chtimes(d.dir, now, now)
	}
	entries, err := os.ReadDir(d.root)
	if err != nil {
		return
	}
	self := filepath.Base(d.dir)
	for _, e := range entries {
		if !e.IsDir() || e.Name() == self || len(e.Name()) != 16 || strings.Trim(e.Name(), "0123456789abcdef") != "" {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > pruneAge {
			os.RemoveAll(filepath.Join(d.root, e.Name()))
		}
	}
}
