package extract

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/keyfindings/keyfindings/findings"
)

// compiledDef is a definition whose queries compiled.
type compiledDef struct {
	def   *findings.Definition
	query *query
	facts []*compiledFact
}

// Extractor runs a catalog against snapshots. It keeps parsed files by blob
// id, so a blob shared by many commits is parsed once.
type Extractor struct {
	defs  []*compiledDef
	cache *parseCache
}

// Compile checks every definition's queries against the grammar. Errors
// name the definition file; nothing is read from any source.
func Compile(cat *findings.Catalog) (*Extractor, error) {
	x := &Extractor{cache: newParseCache()}
	for _, d := range cat.Definitions {
		cd, err := compileDef(d)
		if err != nil {
			return nil, &findings.DefinitionError{File: d.Source, Err: err}
		}
		x.defs = append(x.defs, cd)
	}
	return x, nil
}

var captureRef = regexp.MustCompile(`@([A-Za-z_][A-Za-z0-9_.-]*)`)

func compileDef(d *findings.Definition) (*compiledDef, error) {
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
	cd := &compiledDef{def: d, query: q}
	for _, f := range d.Facts {
		cf, err := compileFact(f, q)
		if err != nil {
			return nil, err
		}
		cd.facts = append(cd.facts, cf)
	}
	return cd, nil
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

// Extract locates every finding in snap.
func (x *Extractor) Extract(snap Snapshot, meta Meta) (*Result, error) {
	doc := &findings.Document{Schema: findings.Schema, Source: findings.Source{Repo: meta.Repo, Ref: meta.Ref}}
	res := &Result{Document: doc}
	if c := snap.Commit(); c != "" {
		doc.Source.Commit = strp(c)
		doc.Source.CommittedAt = strp(snap.CommittedAt().UTC().Format("2006-01-02T15:04:05Z"))
	}
	if pkg, err := snap.ReadFile("packages/opencode/package.json"); err == nil {
		var v struct {
			Version string `json:"version"`
		}
		if json.Unmarshal(pkg.Data, &v) == nil && v.Version != "" {
			doc.Source.Version = strp(v.Version)
		}
	} else if !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	if lic, err := snap.ReadFile("LICENSE"); err == nil {
		sum := sha256.Sum256(lic.Data)
		doc.Source.License = &findings.License{Path: "LICENSE", SHA256: hex.EncodeToString(sum[:])}
		res.License = lic.Data
	} else if !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	l := &locator{x: x, snap: snap, meta: meta}
	for _, cd := range x.defs {
		recs, err := l.locate(cd)
		if err != nil {
			return nil, fmt.Errorf("finding %s: %w", cd.def.ID, err)
		}
		doc.Findings = append(doc.Findings, recs...)
	}
	return res, nil
}

// locator holds per-snapshot state: the files read and the tree walk for
// moved files, each done once.
type locator struct {
	x       *Extractor
	snap    Snapshot
	meta    Meta
	entries []Entry
	walked  bool
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

func (l *locator) read(p string) (*parsedFile, error) {
	f, err := l.snap.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return l.x.cache.get(f)
}

func (l *locator) locate(cd *compiledDef) ([]*findings.Record, error) {
	d := cd.def
	var spans []*span
	var problem string
	var movedFrom *string
	anyFile := false
	for _, p := range append([]string{d.Path}, d.Candidates...) {
		f, err := l.read(p)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		var tl *TooLargeError
		var sl *SymlinkError
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
	if !anyFile {
		moved, err := l.searchTree(cd)
		if err != nil {
			return nil, err
		}
		if len(moved) > 0 {
			spans = moved
			movedFrom = strp(d.Path)
		} else {
			problem = "file not found: " + d.Path + " (and no other .ts/.tsx file matches the query)"
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
func (l *locator) match(cd *compiledDef, f *parsedFile) ([]*span, error) {
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
			tf, err := l.read(target)
			if err != nil {
				if errors.Is(err, ErrNotFound) {
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

func (l *locator) keyOf(cd *compiledDef, m match, f *parsedFile) string {
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
func (l *locator) searchTree(cd *compiledDef) ([]*span, error) {
	if !l.walked {
		l.walked = true
		err := l.snap.Walk(func(e Entry) error {
			if strings.HasSuffix(e.Path, ".ts") || strings.HasSuffix(e.Path, ".tsx") {
				l.entries = append(l.entries, e)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	type hit struct {
		score int
		spans []*span
	}
	var hits []hit
	best := -1
	for _, e := range l.entries {
		f, err := ReadEntry(l.snap, e)
		if err != nil {
			var tl *TooLargeError
			if errors.As(err, &tl) {
				continue
			}
			// A blob missing from a partial copy cannot hold the finding
			// we can cite; skip it.
			continue
		}
		if !containsAll(f.Data, cd.query.anchors) {
			continue
		}
		pf, err := l.x.cache.get(f)
		if err != nil {
			return nil, err
		}
		spans, err := l.match(cd, pf)
		if err != nil {
			return nil, err
		}
		if len(spans) == 0 {
			continue
		}
		score := sharedSuffix(e.Path, cd.def.Path)
		hits = append(hits, hit{score, spans})
		if score > best {
			best = score
		}
	}
	var out []*span
	for _, h := range hits {
		if h.score == best {
			out = append(out, h.spans...)
		}
	}
	return out, nil
}

// sharedSuffix counts the trailing path components a and b share.
func sharedSuffix(a, b string) int {
	pa, pb := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(pa) && n < len(pb) && pa[len(pa)-1-n] == pb[len(pb)-1-n] {
		n++
	}
	return n
}

func (l *locator) base(d *findings.Definition, id string) *findings.Record {
	r := &findings.Record{
		ID: id, Definition: d.ID, Page: d.Page, Section: d.Section, Title: d.Title,
		Claim: strings.TrimSpace(d.Claim), When: strings.TrimSpace(d.When),
		Facts: findings.Facts{}, Warnings: []string{},
	}
	if c := strings.TrimSpace(d.Caveat); c != "" {
		r.Caveat = &c
	}
	return r
}

func (l *locator) unlocated(d *findings.Definition, status, problem string, cands []findings.Candidate) *findings.Record {
	r := l.base(d, d.ID)
	r.Status = status
	r.Problem = &problem
	r.Candidates = cands
	return r
}

// record builds the located record for one span.
func (l *locator) record(cd *compiledDef, s *span, movedFrom *string) (*findings.Record, error) {
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
	r.Path = strp(s.file.Path)
	r.MovedFrom = movedFrom
	r.Blob = strp(s.file.Blob)
	r.Lines = &findings.Lines{Start: s.start, End: s.end}
	raw, err := SpanBytes(s.file.Data, s.start, s.end)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	r.SHA256 = strp(hex.EncodeToString(sum[:]))
	excerpt := string(raw)
	if !utf8.Valid(raw) {
		excerpt = strings.ToValidUTF8(excerpt, "\uFFFD")
		r.Warnings = append(r.Warnings, "the cited lines are not valid UTF-8: the excerpt shows U+FFFD for invalid bytes; sha256 is over the raw bytes")
	}
	r.Excerpt = &excerpt
	if l.snap.Commit() != "" && l.meta.WebURL != "" {
		c := findings.Citation{Path: s.file.Path, Start: s.start, End: s.end, Commit: l.snap.Commit(), WebURL: l.meta.WebURL}
		r.Permalink = strp(c.Permalink())
	}
	rng := s.file.spanRange(s.start, s.end)
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
	r.Facts = findings.Normalize(r.Facts)
	if reviewed, ok := d.Reviewed[id]; ok {
		if !findings.EqualFacts(reviewed, r.Facts) {
			r.Review = strp(findings.ReviewNeeded)
		}
	} else {
		r.Review = strp(findings.ReviewMissing)
	}
	sort.Strings(r.Warnings)
	return r, nil
}

// required lists the facts a match must have to be a finding.
func (cd *compiledDef) required() []string {
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
