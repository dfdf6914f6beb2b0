package findings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/keyfindings/keyfindings/mdtext"
)

// Schema is the value of Document.Schema for this record format.
const Schema = "keyfindings/v1"

// Status says whether a record was located, and if not, why not.
type Status string

// Record statuses.
const (
	StatusLocated   Status = "located"
	StatusMissing   Status = "missing"
	StatusAmbiguous Status = "ambiguous"
	// StatusAbsent is a finding whose concept does not exist at the
	// commit: it lies before the definition's since tag or at or after its
	// until tag (by git ancestry). Problem gives the reason.
	StatusAbsent Status = "absent"
)

// ReviewNeeded is the Record.Review text when facts differ from Reviewed.
const ReviewNeeded = "facts changed since the claim was written"

// ReviewMissing is the Record.Review text when the definition stores no
// reviewed facts for the record.
const ReviewMissing = "facts not reviewed yet"

// Document is the content of findings.json: one commit's records.
type Document struct {
	Schema string `json:"schema"`
	// Keyfindings names the build and catalog that wrote the document;
	// nil in documents written before it was recorded.
	Keyfindings *Tool     `json:"keyfindings,omitempty"`
	Source      Source    `json:"source"`
	Findings    []*Record `json:"findings"`
}

// Source describes the commit the records were read from.
type Source struct {
	Repo        string   `json:"repo"`
	Ref         string   `json:"ref"`
	Commit      *string  `json:"commit"`
	Version     *string  `json:"version"`
	CommittedAt *string  `json:"committed_at"`
	License     *License `json:"license"`
}

// License identifies the upstream licence file at the commit.
type License struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Lines is an inclusive, 1-based line range.
type Lines struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Candidate is one location of an ambiguous finding.
type Candidate struct {
	Path  string `json:"path"`
	Lines Lines  `json:"lines"`
}

// Record is one finding at one commit. Its JSON form (json) has
// the location's fields inline, null when the record is not located.
type Record struct {
	ID      string
	Page    string
	Section string
	Title   string
	Claim   string
	When    string
	Caveat  *string
	Status  Status
	// Shape names the definition's shape whose query located the record
	// (or matched ambiguously); "" for a definition without shapes and
	// for a record no shape located.
	Shape string
	// Location is the span the record cites; nil unless it is located.
	Location *Location
	Facts    Facts
	Review   *string
	// CodeDiffers is set on a located record whose facts are those its
	// claim was reviewed against but whose bytes are none of the versions
	// the claim was checked with: the one accepted last (see CodeDiffers).
	CodeDiffers *CheckedCode
	Candidates  []Candidate
	Warnings    []string
	Problem     *string
	// Definition is the id of the definition that produced the record
	// (differs from ID for expect: all).
	Definition string
}

// Location is where a located record's span is, and what it holds.
type Location struct {
	Path string
	// MovedFrom is the expected path when the span was found elsewhere by
	// the tree search, else "".
	MovedFrom string
	// Blob is the git blob id of the file at Path.
	Blob  string
	Lines Lines
	// SHA256 is over the span's bytes (the hash rule), 64 hex digits.
	SHA256 string
	// Excerpt is the span's bytes, invalid UTF-8 replaced.
	Excerpt string
	// Tokens counts the excerpt's tokens for definitions with model_text;
	// nil for others.
	Tokens *Tokens
	// Permalink links to the span at its commit; "" for a plain
	// directory.
	Permalink string
}

// recordJSON is a Record as json holds it.
type recordJSON struct {
	ID          string       `json:"id"`
	Page        string       `json:"page"`
	Section     string       `json:"section"`
	Title       string       `json:"title"`
	Claim       string       `json:"claim"`
	When        string       `json:"when"`
	Caveat      *string      `json:"caveat"`
	Status      Status       `json:"status"`
	Shape       string       `json:"shape,omitempty"`
	Path        *string      `json:"path"`
	MovedFrom   *string      `json:"moved_from"`
	Blob        *string      `json:"blob"`
	Lines       *Lines       `json:"lines"`
	SHA256      *string      `json:"sha256"`
	Excerpt     *string      `json:"excerpt"`
	Tokens      *Tokens      `json:"tokens"`
	Permalink   *string      `json:"permalink"`
	Facts       Facts        `json:"facts"`
	Review      *string      `json:"review,omitempty"`
	CodeDiffers *CheckedCode `json:"code_differs,omitempty"`
	Candidates  []Candidate  `json:"candidates,omitempty"`
	Warnings    []string     `json:"warnings"`
	Problem     *string      `json:"problem"`
	Definition  string       `json:"definition"`
}

// MarshalJSON writes the record with its location's fields inline.
func (r *Record) MarshalJSON() ([]byte, error) {
	w := recordJSON{
		ID: r.ID, Page: r.Page, Section: r.Section, Title: r.Title, Claim: r.Claim, When: r.When,
		Caveat: r.Caveat, Status: r.Status, Shape: r.Shape, Facts: r.Facts, Review: r.Review,
		CodeDiffers: r.CodeDiffers, Candidates: r.Candidates, Warnings: r.Warnings, Problem: r.Problem, Definition: r.Definition,
	}
	if l := r.Location; l != nil {
		lines := l.Lines
		w.Path, w.MovedFrom, w.Blob = orNull(l.Path), orNull(l.MovedFrom), orNull(l.Blob)
		w.Lines, w.SHA256, w.Excerpt = &lines, orNull(l.SHA256), orNull(l.Excerpt)
		w.Tokens, w.Permalink = l.Tokens, orNull(l.Permalink)
	}
	// HTML is left unescaped here: the encoder that calls MarshalJSON
	// escapes it or not, as its caller set (Document.Marshal does not).
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads a record; any location field present makes a
// Location (check rejects a located record whose location is incomplete).
func (r *Record) UnmarshalJSON(data []byte) error {
	var w recordJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*r = Record{
		ID: w.ID, Page: w.Page, Section: w.Section, Title: w.Title, Claim: w.Claim, When: w.When,
		Caveat: w.Caveat, Status: w.Status, Shape: w.Shape, Facts: w.Facts, Review: w.Review,
		CodeDiffers: w.CodeDiffers, Candidates: w.Candidates, Warnings: w.Warnings, Problem: w.Problem, Definition: w.Definition,
	}
	if w.Path == nil && w.MovedFrom == nil && w.Blob == nil && w.Lines == nil && w.SHA256 == nil &&
		w.Excerpt == nil && w.Tokens == nil && w.Permalink == nil {
		return nil
	}
	l := &Location{
		Path: textOf(w.Path), MovedFrom: textOf(w.MovedFrom), Blob: textOf(w.Blob), SHA256: textOf(w.SHA256),
		Excerpt: textOf(w.Excerpt), Tokens: w.Tokens, Permalink: textOf(w.Permalink),
	}
	if w.Lines != nil {
		l.Lines = *w.Lines
	}
	r.Location = l
	return nil
}

// orNull is s for JSON: null when empty.
func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// textOf is a JSON string field's text, "" for null.
func textOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Tokens is the length of a record's excerpt in tokens of two public
// OpenAI encodings. Only records of definitions with model_text carry it:
// their excerpt is text a model reads as it is.
type Tokens struct {
	O200kBase  int `json:"o200k_base"`
	Cl100kBase int `json:"cl100k_base"`
}

// Located reports whether the record has a span.
func (r *Record) Located() bool { return r.Status == StatusLocated }

// Absent reports whether the finding's concept does not exist at the
// commit (StatusAbsent).
func (r *Record) Absent() bool { return r.Status == StatusAbsent }

// Marshal encodes the document as indented JSON with a trailing newline.
// Map keys are sorted by encoding/json, so output is deterministic.
func (d *Document) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadDocument reads a findings.json file.
func ReadDocument(file string) (*Document, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return DecodeDocument(data, file)
}

// DecodeDocument parses findings.json bytes; name labels errors.
func DecodeDocument(data []byte, name string) (*Document, error) {
	var d Document
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("%s: not a findings.json (the file keyfindings build writes): %s", name, jsonProblem(err))
	}
	switch {
	case d.Schema == "":
		return nil, fmt.Errorf("%s: not a findings.json (the file keyfindings build writes): it has no \"schema\": %q", name, Schema)
	case d.Schema != Schema:
		return nil, fmt.Errorf("%s: schema %q, want %q", name, d.Schema, Schema)
	}
	for i, r := range d.Findings {
		if err := r.Check(); err != nil {
			return nil, fmt.Errorf("%s: finding %d %v; rebuild the file with keyfindings build", name, i+1, err)
		}
	}
	return &d, nil
}

// jsonProblem says in a findings.json reader's terms what a decoding error
// found: not JSON, or JSON of another shape.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn) && syn.Error() == "unexpected end of JSON input":
		return "the JSON ends early (a truncated file?)"
	case errors.As(err, &syn):
		return fmt.Sprintf("not valid JSON (at byte %d: %v)", syn.Offset, err)
	case errors.As(err, &typ) && typ.Field == "":
		return fmt.Sprintf("it holds a JSON %s, not an object with schema, source and findings", typ.Value)
	case errors.As(err, &typ):
		return fmt.Sprintf("its field %s holds a JSON %s where a findings.json has %s", typ.Field, typ.Value, jsonKind(typ.Type.Kind().String()))
	}
	return err.Error()
}

// jsonKind names a Go kind as JSON calls it, with its article.
func jsonKind(kind string) string {
	switch kind {
	case "struct", "map":
		return "an object"
	case "slice", "array":
		return "an array"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "ptr", "interface":
		return "a value"
	}
	return "a number"
}

// Check rejects a record that other code would misread: no id, an
// unknown status, or a located record without a complete citation.
func (r *Record) Check() error {
	switch {
	case r == nil:
		return errors.New("is null")
	case r.ID == "":
		return errors.New("has no id")
	case r.Status != StatusLocated && r.Status != StatusMissing && r.Status != StatusAmbiguous && r.Status != StatusAbsent:
		return fmt.Errorf("(%s) has status %q, not located, missing, ambiguous or absent", r.ID, r.Status)
	case r.CodeDiffers != nil && !r.Located():
		return fmt.Errorf("(%s) is %s but has code_differs, which only a located record has", r.ID, r.Status)
	case r.CodeDiffers != nil && r.CodeDiffers.check() != nil:
		return fmt.Errorf("(%s) code_differs: %v", r.ID, r.CodeDiffers.check())
	case !r.Located():
		return nil
	case r.Location == nil || r.Location.Path == "":
		return fmt.Errorf("(%s) is located but has no path", r.ID)
	case CheckPath(r.Location.Path) != nil:
		return fmt.Errorf("(%s): %v", r.ID, CheckPath(r.Location.Path))
	case r.Location.Lines.Start < 1 || r.Location.Lines.End < r.Location.Lines.Start:
		return fmt.Errorf("(%s) is located but has no valid lines", r.ID)
	case !sha256Pattern.MatchString(r.Location.SHA256):
		return fmt.Errorf("(%s) is located but its sha256 is not 64 lowercase hex digits", r.ID)
	}
	return nil
}

var sha256Pattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Find returns the record with the given id, or nil.
func (d *Document) Find(id string) *Record {
	for _, r := range d.Findings {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Normalize returns facts as they look after a JSON round trip (numbers as
// float64, lists as []any), so facts from a build and facts from a file or a
// definition compare equal when they are.
func Normalize(f Facts) Facts {
	if f == nil {
		return Facts{}
	}
	if out, ok := jsonCopy(map[string]any(f)); ok {
		return Facts(out.(map[string]any))
	}
	data, err := json.Marshal(f)
	if err != nil {
		return f
	}
	var out Facts
	if err := json.Unmarshal(data, &out); err != nil {
		return f
	}
	if out == nil {
		out = Facts{}
	}
	return out
}

// jsonCopy deep-copies v when it is already what a JSON round trip
// gives (a decoded document's facts are): strings of valid UTF-8 (the
// encoder replaces invalid bytes), finite float64s, bools, nil, []any
// and map[string]any of those. Anything else is not ok: Normalize then
// takes the round trip, which copies far more slowly.
func jsonCopy(v any) (any, bool) {
	switch x := v.(type) {
	case nil, bool:
		return x, true
	case string:
		return x, utf8.ValidString(x)
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case []any:
		if x == nil {
			return nil, true
		}
		out := make([]any, len(x))
		for i, e := range x {
			c, ok := jsonCopy(e)
			if !ok {
				return nil, false
			}
			out[i] = c
		}
		return out, true
	case map[string]any:
		if x == nil {
			return nil, true
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, ok := jsonCopy(e)
			if !ok || !utf8.ValidString(k) {
				return nil, false
			}
			out[k] = c
		}
		return out, true
	}
	return nil, false
}

// EqualFacts reports whether two fact sets hold the same values.
func EqualFacts(a, b Facts) bool {
	return reflect.DeepEqual(Normalize(a), Normalize(b))
}

// FactNames returns the union of keys in a and b, sorted.
func FactNames(a, b Facts) []string {
	seen := map[string]bool{}
	for k := range a {
		seen[k] = true
	}
	for k := range b {
		seen[k] = true
	}
	names := make([]string, 0, len(seen))
	for k := range seen {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// CheckPath accepts clean repo-relative paths without control characters.
func CheckPath(p string) error {
	if p == "" || p == "." || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		return fmt.Errorf("path %q is not a clean repo-relative path", mdtext.Clip(p))
	}
	if !utf8.ValidString(p) {
		return fmt.Errorf("path %q is not valid UTF-8", mdtext.Clip(p))
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("path %q contains a control character", mdtext.Clip(p))
		}
	}
	return nil
}

// SourceLabel names a document's source for people: the ref and the short
// commit, e.g. "v1.17.0 (1a2b3c4)".
func SourceLabel(s Source) string {
	ref := s.Ref
	commit := ""
	if s.Commit != nil {
		commit = *s.Commit
		if len(commit) > ShortCommitLen {
			commit = commit[:ShortCommitLen]
		}
	}
	switch {
	case ref != "" && commit != "" && !strings.HasPrefix(commit, ref) && !strings.HasPrefix(ref, commit):
		return ref + " (" + commit + ")"
	case commit != "":
		return commit
	case ref != "":
		return ref
	}
	return "plain directory"
}

// CompactJSON renders a fact value on one line (sorted keys, no HTML
// escaping); nil renders as "(absent)".
func CompactJSON(v any) string {
	if v == nil {
		return "(absent)"
	}
	data, err := marshalCompact(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

func marshalCompact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// ShortCommitLen is how many hex digits of a commit labels and citations
// show.
const ShortCommitLen = 7

// ProblemText is the record's problem, for messages: "no reason recorded"
// when it has none.
func (r *Record) ProblemText() string {
	if r.Problem == nil || *r.Problem == "" {
		return "no reason recorded"
	}
	return *r.Problem
}

// ValidID reports whether s is a definition id: a kebab-case slug.
func ValidID(s string) bool { return idPattern.MatchString(s) }

// Clone copies a record deeply enough that changing the copy never
// changes the original.
func (r *Record) Clone() *Record {
	c := *r
	for _, p := range []**string{&c.Caveat, &c.Review, &c.Problem} {
		if *p != nil {
			v := **p
			*p = &v
		}
	}
	if r.CodeDiffers != nil {
		cd := *r.CodeDiffers
		c.CodeDiffers = &cd
	}
	if r.Location != nil {
		l := *r.Location
		if l.Tokens != nil {
			t := *l.Tokens
			l.Tokens = &t
		}
		c.Location = &l
	}
	if r.Facts != nil {
		c.Facts = Facts(cloneValue(map[string]any(r.Facts)).(map[string]any))
	}
	if r.Candidates != nil {
		c.Candidates = append(make([]Candidate, 0, len(r.Candidates)), r.Candidates...)
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
	case Facts:
		return Facts(cloneValue(map[string]any(v)).(map[string]any))
	case []any:
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = cloneValue(e)
		}
		return l
	}
	return v
}
