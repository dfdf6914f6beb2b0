package locate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/keyfindings/keyfindings/cite"
	"github.com/keyfindings/keyfindings/internal/par"
	"github.com/keyfindings/keyfindings/source"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/keyfindings/keyfindings/findings"
)

// compiledDef is a definition whose queries compiled: one compiled shape
// per form (findings.Definition.Forms), tried in order.
type compiledDef struct {
	def    *findings.Definition
	shapes []*compiledShape
	// hash identifies the definition's content, for cached results.
	hash string
}

// compiledShape is one form of a definition, compiled.
type compiledShape struct {
	// def is the definition as this shape sees it (its path, query,
	// facts and prose); def.ShapeName names the shape.
	def   *findings.Definition
	query *query
	facts []*compiledFact
	// anchorIDs number the query's anchors in the Extractor's anchorCache.
	anchorIDs []int
}

// paths lists the files the definition names over all its shapes, each
// once: path, then candidates, shape by shape.
func (cd *compiledDef) paths() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range cd.shapes {
		for _, p := range s.paths() {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// paths lists the files the shape names: its path, then candidates.
func (cs *compiledShape) paths() []string {
	return append([]string{cs.def.Path}, cs.def.Candidates...)
}

// shape returns the compiled shape of that name, nil when there is none.
func (cd *compiledDef) shape(name string) *compiledShape {
	for _, s := range cd.shapes {
		if s.def.ShapeName == name {
			return s
		}
	}
	return nil
}

// Extractor runs a catalog against snapshots. It is safe for concurrent
// use. Parse trees are shared by blob id among the Extract calls in
// flight, and each definition's records are kept by the blob ids they
// were computed from, so a blob that many commits share is parsed once
// and its matches computed once per definition.
type Extractor struct {
	// tool names this build and the catalog's fingerprint in documents.
	tool findings.Tool
	// pin says which files hold the upstream's version and licence.
	pin     findings.Pin
	defs    []*compiledDef
	parses  *parseCache
	results *resultCache
	anchors *anchorCache
	// lineage remembers the ancestry of the commits asked about.
	lineage *lineage
	// misses remembers the blobs a shape's tree search found nothing in
	// (a missKey set): the result depends on the bytes alone, and the same
	// blobs are searched again at commit after commit of a log or of a
	// run of releases.
	misses sync.Map
	// src serialises every call into a snapshot (see run).
	src sync.Mutex
	// cpu bounds the definitions being located at once, over all calls.
	cpu     chan struct{}
	workers int
}

// Compile checks every definition's queries against the grammar. Errors
// name the definition file; nothing is read from any source. Queries
// compile in parallel (tree-sitter needs milliseconds for each).
func Compile(cat *findings.Catalog) (*Extractor, error) {
	return CompileWith(cat, CompileOptions{})
}

// CompileOptions configure an Extractor.
type CompileOptions struct {
	// CacheDir, when set, keeps on disk what the Extractor otherwise keeps
	// in memory for one process: located records by the blob ids they
	// came from, and what compiling each query told (see querycache.go).
	// Later runs of the same keyfindings build reuse them. Entries are
	// small files written atomically under a directory per build; any may
	// be deleted at any time, and one that does not read back is ignored.
	CacheDir string
	// PlacesInMemory keeps where commits stand to the catalog's tags in
	// memory only, not in CacheDir. A log places thousands of commits, each
	// cheap to place again from the commits its walk read, and writing a
	// file per commit cost more CPU than placing them: over opencode's
	// whole history the catalog's log placed some 6,500 commits in 1.2 s
	// and wrote their files in about 3 s.
	PlacesInMemory bool
}

// CompileWith is Compile with options.
func CompileWith(cat *findings.Catalog, opts CompileOptions) (*Extractor, error) {
	n := par.Workers()
	x := &Extractor{pin: findings.DefaultPin(), parses: newParseCache(), results: newResultCache(), anchors: newAnchorCache(), lineage: newLineage(), cpu: make(chan struct{}, n), workers: n}
	texts := catalogQueries(cat)
	if opts.CacheDir != "" {
		x.results.disk = newDiskCache(opts.CacheDir)
		if !opts.PlacesInMemory {
			x.lineage.disk = x.results.disk
		}
	}
	uncached := storeKnown(cat, texts, x.results.disk)
	// Compile the other texts first, in groups (see group.go), the
	// largest (slowest) first, so the workers stay busy to the end;
	// compileDef then finds them compiled and reports any error in
	// catalog order.
	groups := queryGroups(cat, uncached)
	slices.SortStableFunc(groups, func(a, b []string) int { return groupSize(b) - groupSize(a) })
	par.ForEach(len(groups), n, func(i int) { compileGroup(groups[i]) })
	defs := make([]*compiledDef, len(cat.Definitions))
	errs := make([]error, len(cat.Definitions))
	par.ForEach(len(defs), n, func(i int) {
		defs[i], errs[i] = compileDef(cat.Definitions[i])
	})
	enc, err := cat.Encodings()
	if err != nil {
		return nil, err
	}
	for i, d := range cat.Definitions {
		if errs[i] != nil {
			return nil, &findings.DefinitionError{File: d.Source, Err: errs[i]}
		}
		sum := sha256.Sum256(enc[i])
		defs[i].hash = hex.EncodeToString(sum[:])
		for _, s := range defs[i].shapes {
			s.anchorIDs = x.anchors.add(s.query.anchors)
		}
	}
	x.defs = defs
	fp, err := cat.Fingerprint()
	if err != nil {
		return nil, err
	}
	x.tool = findings.Tool{Version: findings.Version, Catalog: fp}
	if d := x.results.disk; d != nil {
		d.storeQueries(uncached)
	}
	return x, nil
}

var captureRef = regexp.MustCompile(`@([A-Za-z_][A-Za-z0-9_.-]*)`)

// compileDef compiles every shape of d; an error names the shape.
func compileDef(d *findings.Definition) (*compiledDef, error) {
	cd := &compiledDef{def: d}
	for _, form := range d.Forms() {
		cs, err := compileShape(form)
		if err != nil {
			if form.ShapeName != "" {
				return nil, fmt.Errorf("shape %q: %w", form.ShapeName, err)
			}
			return nil, err
		}
		cd.shapes = append(cd.shapes, cs)
	}
	return cd, nil
}

func compileShape(d *findings.Definition) (*compiledShape, error) {
	q, err := compileQuery(d.Query)
	if err != nil {
		return nil, err
	}
	hasFinding, hasStart, hasEnd := q.hasCapture("finding"), q.hasCapture("start"), q.hasCapture("end")
	switch {
	case hasFinding && (hasStart || hasEnd):
		return nil, errors.New("query captures both @finding and @start/@end; use one span form")
	case !hasFinding && d.File == "" && !(hasStart && hasEnd):
		return nil, errors.New("query needs a @finding capture, or @start and @end")
	case hasStart != hasEnd:
		return nil, errors.New("query has only one of @start and @end")
	}
	if hasStart {
		// Captures in a pattern match in source order, so @end written
		// before @start can only give a span that ends before it starts.
		refs := captureRef.FindAllStringSubmatchIndex(stripComments(d.Query), -1)
		first := map[string]int{}
		text := stripComments(d.Query)
		for _, r := range refs {
			name := text[r[2]:r[3]]
			if _, ok := first[name]; !ok {
				first[name] = r[0]
			}
		}
		// A @start on an enclosing node is written after the pattern it
		// captures, which may hold @end: that order is fine.
		if first["end"] < first["start"] && !withinCaptured(text, first["start"], first["end"]) {
			return nil, errors.New("@end comes before @start in the query, so the span would end before it starts")
		}
	}
	for _, c := range []struct{ field, name string }{{"key", d.Key}, {"file", d.File}} {
		if c.name != "" && !q.hasCapture(c.name) {
			return nil, fmt.Errorf("%s: unknown capture @%s", c.field, c.name)
		}
	}
	if d.Expect == findings.ExpectAll && d.Key == "" {
		return nil, errors.New("expect: all needs key: (the capture that names each record)")
	}
	cs := &compiledShape{def: d, query: q}
	for _, f := range d.Facts {
		cf, err := compileFact(f, q)
		if err != nil {
			return nil, err
		}
		cs.facts = append(cs.facts, cf)
	}
	return cs, nil
}

// stripComments removes ;-comments from a query, keeping offsets aligned
// well enough for ordering checks.
func stripComments(q string) string {
	lines := strings.Split(q, "\n")
	for i, l := range lines {
		inStr := false
		for j := 0; j < len(l); j++ {
			switch l[j] {
			case '"':
				if j == 0 || l[j-1] != '\\' {
					inStr = !inStr
				}
			case ';':
				if !inStr {
					lines[i] = l[:j] + strings.Repeat(" ", len(l)-j)
					j = len(l)
				}
			}
		}
	}
	return strings.Join(lines, "\n")
}

// withinCaptured reports whether offset pos lies inside the node pattern
// that the capture written at offset at names: the parenthesised (or
// bracketed) pattern that ends just before it.
func withinCaptured(text string, at, pos int) bool {
	i := at - 1
	for i >= 0 && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i--
	}
	if i < 0 || (text[i] != ')' && text[i] != ']') {
		return false
	}
	close := i
	depth := 0
	for ; i >= 0; i-- {
		switch text[i] {
		case ')', ']':
			depth++
		case '(', '[':
			depth--
			if depth == 0 {
				return pos > i && pos < close
			}
		case '"':
			// Skip a string literal backwards.
			for i--; i >= 0 && !(text[i] == '"' && (i == 0 || text[i-1] != '\\')); i-- {
			}
		}
	}
	return false
}

// Meta is what the document's source block says beyond the snapshot.
type Meta struct {
	// Repo is the web URL recorded as source.repo.
	Repo string
	// Ref is the ref as the user gave it.
	Ref string
	// WebURL is the permalink base; "" for no permalinks.
	WebURL string
}

// Result is one commit's document and the licence bytes to publish.
type Result struct {
	Document *findings.Document
	// License is the upstream LICENSE file, nil when there is none.
	License []byte
}

// Extract locates every finding in snap. Definitions are located in
// parallel; the document lists them in catalog order whatever the
// scheduling.
func (x *Extractor) Extract(snap source.Snapshot, meta Meta) (*Result, error) {
	res, recs, err := x.extract(snap, meta, x.defs)
	if err != nil {
		return nil, err
	}
	for _, rs := range recs {
		res.Document.Findings = append(res.Document.Findings, rs...)
	}
	return res, nil
}

// ExtractEach is Extract for the definitions ids names only (each one
// once), as one Extract call: each file they read is parsed once for all of
// them, and they are located in parallel. It returns the document without
// its findings, and the records of each id, in the order of ids. A caller
// that follows several definitions over commits (keyfindings log) locates
// at each commit only the definitions whose inputs changed there.
func (x *Extractor) ExtractEach(snap source.Snapshot, meta Meta, ids []string) (*findings.Document, [][]*findings.Record, error) {
	defs := make([]*compiledDef, len(ids))
	for i, id := range ids {
		cd, err := x.def(id)
		if err != nil {
			return nil, nil, err
		}
		defs[i] = cd
	}
	res, recs, err := x.extract(snap, meta, defs)
	if err != nil {
		return nil, nil, err
	}
	return res.Document, recs, nil
}

// extract locates the definitions defs in snap: the result, whose document
// has no findings yet, and the records of each definition.
func (x *Extractor) extract(snap source.Snapshot, meta Meta, defs []*compiledDef) (*Result, [][]*findings.Record, error) {
	x.results.begin()
	r := x.newRun(snap, meta)
	defer r.close()
	tool := x.tool
	doc := &findings.Document{Schema: findings.Schema, Keyfindings: &tool, Source: findings.Source{Repo: meta.Repo, Ref: meta.Ref}}
	res := &Result{Document: doc}
	if c := snap.Commit(); c != "" {
		doc.Source.Commit = strp(c)
		doc.Source.CommittedAt = strp(snap.CommittedAt().UTC().Format("2006-01-02T15:04:05Z"))
	}
	if pkg, err := r.readFile(x.pin.VersionFile); err == nil {
		var v struct {
			Version string `json:"version"`
		}
		if json.Unmarshal(pkg.Data, &v) == nil && v.Version != "" {
			doc.Source.Version = strp(v.Version)
		}
	} else if !errors.Is(err, source.ErrNotFound) {
		return nil, nil, err
	}
	if lic, err := r.readFile(x.pin.LicenseFile); err == nil {
		sum := sha256.Sum256(lic.Data)
		doc.Source.License = &findings.License{Path: x.pin.LicenseFile, SHA256: hex.EncodeToString(sum[:])}
		res.License = lic.Data
	} else if !errors.Is(err, source.ErrNotFound) {
		return nil, nil, err
	}
	// What a definition's paths hold keys its cached records; the
	// definitions whose files are all absent share one tree search.
	keys := make([]string, len(defs))
	outsides := make([]*outside, len(defs))
	offs := make([]searchOff, len(defs))
	var moved []*compiledShape
	a := &ahead{x: x, defs: defs}
	defer a.stop()
	for i, cd := range defs {
		var err error
		if outsides[i], err = x.rangeAt(snap, cd.def, a.walking); err != nil {
			return nil, nil, fmt.Errorf("finding %s: %w", cd.def.ID, err)
		}
		offs[i] = searchOff{all: outsides[i] != nil}
		if !offs[i].all {
			if offs[i].shapes, err = x.searchSkipped(r, cd, a.walking); err != nil {
				return nil, nil, fmt.Errorf("finding %s: %w", cd.def.ID, err)
			}
		}
		key, search, err := resultKey(cd, r, offs[i])
		if err != nil {
			return nil, nil, fmt.Errorf("finding %s: %w", cd.def.ID, err)
		}
		keys[i] = key
		moved = append(moved, search...)
	}
	a.stop()
	if h := snap.History(); h != nil {
		x.lineage.save(h, snap.Commit())
	}
	if len(moved) > 0 {
		if err := r.scan(moved); err != nil {
			return nil, nil, err
		}
	}
	recs := make([][]*findings.Record, len(defs))
	errs := make([]error, len(defs))
	par.ForEach(len(defs), x.workers, func(i int) {
		recs[i], errs[i] = r.records(defs[i], keys[i], offs[i])
	})
	for i, cd := range defs {
		if errs[i] != nil {
			return nil, nil, fmt.Errorf("finding %s: %w", cd.def.ID, errs[i])
		}
		if outsides[i] != nil {
			// After the cache: the records depend on the files, the
			// range on the commit.
			outsides[i].apply(recs[i])
		}
	}
	return res, recs, nil
}

// records returns cd's records in r: the cached ones when everything they
// were computed from holds the same in r, else located afresh and cached.
//
// The shapes off names (all of them when the commit is outside the
// definition's since/until range) are looked for at their own paths
// only: the tree search, the costliest step at an old release, would
// find nothing but a range to correct, and a file at a named path still
// warns of that.
func (r *run) records(cd *compiledDef, key string, off searchOff) ([]*findings.Record, error) {
	r.x.cpu <- struct{}{}
	defer func() { <-r.x.cpu }()
	if cachesOff.results {
		recs, _, err := r.locate(cd, off)
		return recs, err
	}
	c := r.x.results
	e := c.entry(key)
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.loaded {
		e.loaded = true
		if c.disk != nil {
			e.variants = append(e.variants, c.disk.load(key)...)
		}
	}
	for _, v := range e.variants {
		ok, err := r.valid(cd, v.Deps)
		if err != nil {
			return nil, err
		}
		if ok {
			c.hits.Add(1)
			return r.publish(v.Records), nil
		}
	}
	c.misses.Add(1)
	recs, deps, err := r.locate(cd, off)
	if err != nil {
		return nil, err
	}
	kept, data, ok := cachable(recs)
	if !ok {
		return recs, nil
	}
	v, err := newCachedResult(deps, kept, data)
	if err != nil {
		return recs, nil
	}
	e.variants = append([]*cachedResult{v}, e.variants...)
	if len(e.variants) > maxVariants {
		e.variants = e.variants[:maxVariants]
	}
	if c.disk != nil {
		c.disk.store(key, e.variants)
	}
	return r.publish(kept), nil
}

// locate locates cd afresh in r and lists what it read.
func (r *run) locate(cd *compiledDef, off searchOff) ([]*findings.Record, []dep, error) {
	l := &locator{x: r.x, run: r, snap: r.snap, meta: r.meta, views: map[string]*parsedFile{}, off: off}
	defer l.close()
	recs, err := l.locate(cd)
	if err != nil {
		return nil, nil, err
	}
	return recs, l.depList(), nil
}

// locator locates one definition in a run, on one goroutine: it holds its
// own copies of the syntax trees it queries, and notes every input it
// reads (deps) for the cache.
type locator struct {
	x    *Extractor
	run  *run
	snap source.Snapshot
	meta Meta
	// views are the parsed files queried, by path; closed by close.
	views map[string]*parsedFile
	deps  []dep
	// off names the shapes the tree search skips (see run.records).
	off searchOff
}

// span is one located range, with the matches that produced it.
type span struct {
	file       *parsedFile
	start, end int
	matches    []match
	// origin is the file the query matched, when the span is another
	// file (definitions with file:).
	origin *parsedFile
}

// read returns the parsed file at p.
func (l *locator) read(p string) (*parsedFile, error) {
	f, err := l.readFile(p)
	if err != nil {
		return nil, err
	}
	return l.view(f)
}

// readText returns the file at p with its line index, unparsed.
func (l *locator) readText(p string) (*parsedFile, error) {
	f, err := l.readFile(p)
	if err != nil {
		return nil, err
	}
	return textFile(f), nil
}

func (l *locator) readFile(p string) (*source.File, error) {
	id, err := l.run.lookup(p)
	if err != nil {
		return nil, err
	}
	l.deps = append(l.deps, dep{Path: p, ID: id})
	return l.run.readFile(p)
}

// view returns f parsed, for this locator's goroutine.
func (l *locator) view(f *source.File) (*parsedFile, error) {
	if pf, ok := l.views[f.Path]; ok && pf.Blob == f.Blob {
		return pf, nil
	}
	pf, err := l.run.parsed(f)
	if err != nil {
		return nil, err
	}
	if old, ok := l.views[f.Path]; ok {
		old.close()
	}
	l.views[f.Path] = pf
	return pf, nil
}

// close frees the locator's trees.
func (l *locator) close() {
	for _, pf := range l.views {
		pf.close()
	}
	l.views = nil
}

// depList returns the inputs read, each once, in a stable order.
func (l *locator) depList() []dep {
	seen := map[dep]bool{}
	out := []dep{}
	for _, d := range l.deps {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		if out[i].Shape != out[j].Shape {
			return out[i].Shape < out[j].Shape
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// locate tries the definition's shapes in order. The first shape whose
// query matches anything decides: located, or ambiguous (an older shape is
// then not tried, so an ambiguity is never hidden). When no shape
// matches, the record is missing with every shape's reason.
func (l *locator) locate(cd *compiledDef) ([]*findings.Record, error) {
	var problems []string
	for _, cs := range cd.shapes {
		recs, err := l.locateShape(cs)
		if err != nil {
			return nil, err
		}
		if len(recs) == 1 && recs[0].Status == findings.StatusMissing {
			if cs.def.ShapeName == "" {
				return recs, nil
			}
			problems = append(problems, *recs[0].Problem)
			continue
		}
		return recs, nil
	}
	for i, cs := range cd.shapes {
		problems[i] = fmt.Sprintf("shape %s: %s", cs.def.ShapeName, problems[i])
	}
	return []*findings.Record{l.unlocated(cd.def, findings.StatusMissing, strings.Join(problems, "; "), nil)}, nil
}

// locateShape locates one shape of a definition.
func (l *locator) locateShape(cd *compiledShape) ([]*findings.Record, error) {
	d := cd.def
	var spans []*span
	var problem string
	var movedFrom string
	anyFile := false
	for _, p := range append([]string{d.Path}, d.Candidates...) {
		f, err := l.read(p)
		if errors.Is(err, source.ErrNotFound) {
			continue
		}
		var tl *source.TooLargeError
		var sl *source.SymlinkError
		if errors.As(err, &tl) || errors.As(err, &sl) {
			problem = err.Error()
			anyFile = true
			continue
		}
		if err != nil {
			return nil, err
		}
		anyFile = true
		if f.unsearchable != "" {
			problem = f.unsearchable
			continue
		}
		s, err := l.match(cd, f)
		if err != nil {
			return nil, err
		}
		spans = append(spans, s...)
	}
	var searchNote string
	if !anyFile && l.off.all {
		problem = "file not found: " + d.Path
	} else if !anyFile && l.off.shapes[cd] {
		problem = "file not found: " + d.Path + " (not searched for elsewhere before " + d.SearchFrom + ", the shape's search_from)"
	} else if !anyFile {
		moved, skipped, err := l.searchTree(cd)
		if err != nil {
			return nil, err
		}
		if len(skipped) > 0 {
			searchNote = skippedNote(skipped)
		}
		if len(moved) > 0 {
			spans = moved
			movedFrom = d.Path
		} else {
			problem = "file not found: " + d.Path + " (and no other .ts/.tsx file matches the query)"
			if searchNote != "" {
				problem += "; " + searchNote
			}
		}
	} else if len(spans) == 0 && problem == "" {
		problem = "no match in " + d.Path
		if len(d.Candidates) > 0 {
			problem = "no match in " + strings.Join(append([]string{d.Path}, d.Candidates...), ", ")
		}
	}
	if len(spans) == 0 {
		return []*findings.Record{l.unlocated(d, findings.StatusMissing, problem, nil)}, nil
	}
	var recs []*findings.Record
	var kept []*span
	for _, s := range spans {
		r, err := l.record(cd, s, movedFrom)
		if err != nil {
			return nil, err
		}
		if r == nil {
			continue
		}
		if searchNote != "" {
			r.Warnings = append(r.Warnings, searchNote)
			sort.Strings(r.Warnings)
		}
		recs = append(recs, r)
		kept = append(kept, s)
	}
	if len(recs) == 0 {
		msg := fmt.Sprintf("no match in %s has the required facts (%s)", d.Path, strings.Join(cd.required(), ", "))
		return []*findings.Record{l.unlocated(d, findings.StatusMissing, msg, nil)}, nil
	}
	if d.Expect == findings.ExpectOne && len(kept) > 1 {
		var cands []findings.Candidate
		for _, s := range kept {
			cands = append(cands, findings.Candidate{Path: s.file.Path, Lines: findings.Lines{Start: s.start, End: s.end}})
		}
		msg := fmt.Sprintf("%d places match; make the query more specific", len(kept))
		return []*findings.Record{l.unlocated(d, findings.StatusAmbiguous, msg, cands)}, nil
	}
	if d.Expect == findings.ExpectAll {
		seen := map[string]bool{}
		for _, r := range recs {
			if seen[r.ID] {
				return []*findings.Record{l.unlocated(d, findings.StatusAmbiguous, fmt.Sprintf("two matches share the record id %s; make key: distinguish them", r.ID), nil)}, nil
			}
			seen[r.ID] = true
		}
	}
	return recs, nil
}

// match runs the definition's query on one file and groups the matches by
// the line range they select.
func (l *locator) match(cd *compiledShape, f *parsedFile) ([]*span, error) {
	if f.unsearchable != "" {
		// Querying it could take minutes (see maxChildren): no match.
		return nil, nil
	}
	ms, err := cd.query.run(f, f.root, nil)
	if err != nil {
		return nil, err
	}
	var spans []*span
	index := map[[3]string]*span{}
	for _, m := range ms {
		file := f
		var start, end int
		switch {
		case cd.def.File != "":
			nodes := m.captures[cd.def.File]
			if len(nodes) == 0 {
				continue
			}
			target := unquote(nodes[0].Content(f.Data))
			if strings.HasPrefix(target, "./") || strings.HasPrefix(target, "../") {
				target = path.Join(path.Dir(f.Path), target)
			}
			tf, err := l.readText(target)
			if err != nil {
				if errors.Is(err, source.ErrNotFound) {
					continue
				}
				return nil, err
			}
			file = tf
			start, end = 1, tf.lineCount()
			if end == 0 {
				continue
			}
		case len(m.captures["finding"]) > 0:
			start, end = nodeLines(m.captures["finding"][0])
		default:
			s, e := m.captures["start"], m.captures["end"]
			if len(s) == 0 || len(e) == 0 {
				continue
			}
			start, _ = nodeLines(s[0])
			_, end = nodeLines(e[len(e)-1])
			if end < start {
				continue
			}
		}
		key := [3]string{file.Path, fmt.Sprint(start), fmt.Sprint(end)}
		if cd.def.Expect == findings.ExpectAll {
			key[2] += "\x00" + l.keyOf(cd, m, f)
		}
		if s, ok := index[key]; ok {
			s.matches = append(s.matches, m)
			continue
		}
		s := &span{file: file, start: start, end: end, matches: []match{m}}
		if file != f {
			// The query ran on f: facts come from f, the cited span is
			// the whole target file.
			s.origin = f
		}
		index[key] = s
		spans = append(spans, s)
	}
	return spans, nil
}

func (l *locator) keyOf(cd *compiledShape, m match, f *parsedFile) string {
	if cd.def.Key == "" {
		return ""
	}
	var parts []string
	for _, n := range m.captures[cd.def.Key] {
		parts = append(parts, fmt.Sprint(literal(n, f.Data)))
	}
	return strings.Join(parts, " ")
}

// searchTree looks for the finding in every .ts/.tsx file whose bytes hold
// the query's anchors, and keeps the best-placed files.
// The walk and the filtering by bytes are done once per snapshot for all
// definitions (run.scan); here only the files that passed are parsed.
//
// skipped names the tree entries the search could not consider (names that
// cannot be a path), quoted.
func (l *locator) searchTree(cd *compiledShape) (spans []*span, skipped []string, err error) {
	found, err := l.run.searchFor(cd)
	if err != nil {
		return nil, nil, err
	}
	l.deps = append(l.deps, dep{ID: found.id, Shape: cd.def.ShapeName})
	type hit struct {
		score int
		spans []*span
	}
	var hits []hit
	best := -1
	for _, e := range found.entries {
		miss := missKey{cd, e.Blob}
		if e.Blob != "" && !cachesOff.misses {
			if _, ok := l.run.x.misses.Load(miss); ok {
				continue
			}
		}
		f, err := l.run.readEntry(e)
		if err != nil {
			// Too large, or a blob missing from a partial copy: it
			// cannot hold a finding we can cite; skip it.
			continue
		}
		pf, err := l.view(f)
		if err != nil {
			return nil, nil, err
		}
		got, err := l.match(cd, pf)
		if err != nil {
			return nil, nil, err
		}
		if len(got) == 0 {
			if e.Blob != "" && !cachesOff.misses {
				l.run.x.misses.Store(miss, struct{}{})
			}
			continue
		}
		score := SharedSuffix(e.Path, cd.def.Path)
		hits = append(hits, hit{score, got})
		if score > best {
			best = score
		}
	}
	for _, h := range hits {
		if h.score == best {
			spans = append(spans, h.spans...)
		}
	}
	return spans, found.skipped, nil
}

// missKey names a blob a shape's query matched nothing in.
type missKey struct {
	shape *compiledShape
	blob  string
}

// skippedNote words, for a record, the tree entries a search passed over.
func skippedNote(skipped []string) string {
	const most = 5
	names := skipped
	more := ""
	if len(names) > most {
		names, more = names[:most], fmt.Sprintf(" and %d more", len(skipped)-most)
	}
	noun := "entry"
	if len(skipped) > 1 {
		noun = "entries"
	}
	return fmt.Sprintf("the tree search skipped %d %s whose name cannot be a file path: %s%s", len(skipped), noun, strings.Join(names, ", "), more)
}

// SharedSuffix counts the trailing path components a and b share: the
// tie-break among several files that hold a moved finding.
func SharedSuffix(a, b string) int {
	pa, pb := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(pa) && n < len(pb) && pa[len(pa)-1-n] == pb[len(pb)-1-n] {
		n++
	}
	return n
}

func (l *locator) base(d *findings.Definition, id string) *findings.Record {
	r := &findings.Record{
		ID: id, Definition: d.ID, Shape: d.ShapeName, Page: d.Page, Section: d.Section, Title: d.Title,
		Claim: strings.TrimSpace(d.Claim), When: strings.TrimSpace(d.When),
		Facts: findings.Facts{}, Warnings: []string{},
	}
	if c := strings.TrimSpace(d.Caveat); c != "" {
		r.Caveat = &c
	}
	return r
}

func (l *locator) unlocated(d *findings.Definition, status findings.Status, problem string, cands []findings.Candidate) *findings.Record {
	r := l.base(d, d.ID)
	r.Status = status
	r.Problem = &problem
	r.Candidates = cands
	return r
}

// record builds the located record for one span.
func (l *locator) record(cd *compiledShape, s *span, movedFrom string) (*findings.Record, error) {
	d := cd.def
	id := d.ID
	if d.Expect == findings.ExpectAll {
		src := s.file
		if s.origin != nil {
			src = s.origin
		}
		id = d.ID + "-" + slug(l.keyOf(cd, s.matches[0], src))
	}
	r := l.base(d, id)
	r.Status = findings.StatusLocated
	loc := &findings.Location{Path: s.file.Path, MovedFrom: movedFrom, Blob: s.file.Blob, Lines: findings.Lines{Start: s.start, End: s.end}}
	r.Location = loc
	rng, err := s.file.spanRange(s.start, s.end)
	if err != nil {
		return nil, err
	}
	raw := s.file.Data[rng.start:rng.end]
	sum := sha256.Sum256(raw)
	loc.SHA256 = hex.EncodeToString(sum[:])
	loc.Excerpt = string(raw)
	if !utf8.Valid(raw) {
		loc.Excerpt = strings.ToValidUTF8(loc.Excerpt, "\uFFFD")
		r.Warnings = append(r.Warnings, "the cited lines are not valid UTF-8: the excerpt shows U+FFFD for invalid bytes; sha256 is over the raw bytes")
	}
	if l.snap.Commit() != "" && l.meta.WebURL != "" {
		c := cite.Citation{Path: s.file.Path, Start: s.start, End: s.end, Commit: l.snap.Commit(), WebURL: l.meta.WebURL}
		loc.Permalink = c.Permalink()
	}
	// A file span (file:) cites a file the query did not parse as its
	// source (a prompt text), so its parse says nothing.
	if lines := s.file.syntaxErrors(rng); len(lines) > 0 && s.origin == nil {
		r.Warnings = append(r.Warnings, fmt.Sprintf("syntax error inside the span at line %s: the parse may be incomplete", joinInts(lines)))
	}
	warn := func(msg string) { r.Warnings = append(r.Warnings, msg) }
	// Facts are evaluated in the file the query matched (for file spans,
	// the importing file, not the cited one).
	factFile := s.file
	factRange := rng
	if s.origin != nil {
		factFile = s.origin
		factRange = byteRange{0, len(factFile.Data)}
	}
	caps := mergeCaptures(s.matches)
	for name, nodes := range caps {
		if d.IsReserved(name) {
			continue
		}
		var values []any
		for _, n := range sortNodes(nodes) {
			values = append(values, literal(n, factFile.Data))
		}
		v, ok, _ := shape(values, false)
		if ok {
			r.Facts[name] = v
		}
	}
	if s.origin != nil {
		r.Facts["bytes"] = len(s.file.Data)
		r.Facts["lines"] = s.file.lineCount()
	}
	for _, cf := range cd.facts {
		v, ok, err := cf.eval(factScope{file: factFile, captures: caps, span: factRange, warn: warn})
		if err != nil {
			return nil, err
		}
		if ok {
			r.Facts[cf.spec.Name] = v
		}
	}
	for _, name := range cd.required() {
		if empty(r.Facts[name]) {
			// Not a finding: the query matched code the definition
			// excludes (see FactSpec.Required).
			return nil, nil
		}
	}
	if d.ModelText {
		// Counted here, where every located record is built; cached
		// records keep the counts they were built with.
		t, err := countTokens(loc.Excerpt)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.file.Path, err)
		}
		loc.Tokens = &t
	}
	r.Facts = findings.Normalize(r.Facts)
	key := findings.ReviewKey(d.ShapeName, id)
	if verdict := findings.ReviewOf(d, key, r.Facts); verdict != "" {
		r.Review = strp(verdict)
	} else {
		r.CodeDiffers = findings.CodeDiffers(d, key, loc.SHA256)
	}
	sort.Strings(r.Warnings)
	return r, nil
}

// required lists the facts a match must have to be a finding.
func (cd *compiledShape) required() []string {
	var names []string
	for _, f := range cd.def.Facts {
		if f.Required {
			names = append(names, f.Name)
		}
	}
	return names
}

// empty reports whether a fact value is absent or an empty list.
func empty(v any) bool {
	if v == nil {
		return true
	}
	l, ok := v.([]any)
	return ok && len(l) == 0
}

// mergeCaptures joins the captures of several matches of one span.
func mergeCaptures(ms []match) map[string][]*sitter.Node {
	out := map[string][]*sitter.Node{}
	for _, m := range ms {
		for k, v := range m.captures {
			out[k] = append(out[k], v...)
		}
	}
	return out
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

func slug(s string) string {
	s = strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if s == "" {
		return "x"
	}
	return s
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}

func strp(s string) *string { return &s }
