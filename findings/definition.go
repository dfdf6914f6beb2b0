package findings

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/keyfindings/keyfindings/internal/par"
	"github.com/keyfindings/keyfindings/mdtext"
	"go.yaml.in/yaml/v3"
	"golang.org/x/mod/semver"
)

//go:embed defs/*.yaml
var embedded embed.FS

//go:embed pin.yaml
var pinData []byte

// Pages lists the valid values of Definition.Page, in site order.
var Pages = []string{"prompts", "tools", "configuration", "network"}

// Expect values.
const (
	ExpectOne = "one"
	ExpectAll = "all"
)

// Definition is one finding as data: where to look, what to match, what to say.
// ModelText says the cited text is read by the model as it is (a prompt,
// tool description, reminder or template file), so its records carry the
// excerpt's token counts; it needs File, since only a span that cites the
// file itself, not the code that holds it, is that text.
type Definition struct {
	ID         string     `yaml:"id"`
	Page       string     `yaml:"page"`
	Section    string     `yaml:"section"`
	Title      string     `yaml:"title"`
	Claim      string     `yaml:"claim"`
	When       string     `yaml:"when"`
	Caveat     string     `yaml:"caveat,omitempty"`
	Path       string     `yaml:"path"`
	Candidates []string   `yaml:"candidates,omitempty"`
	Expect     string     `yaml:"expect,omitempty"`
	Query      string     `yaml:"query"`
	Key        string     `yaml:"key,omitempty"`
	File       string     `yaml:"file,omitempty"`
	ModelText  bool       `yaml:"model_text,omitempty"`
	Facts      []FactSpec `yaml:"facts,omitempty"`
	// Shapes are the forms the finding's code took over opencode's
	// history, newest first (see Shape). Without shapes the definition's
	// own path, query and facts are its only form.
	Shapes []Shape `yaml:"shapes,omitempty"`
	// Since is the release tag from which the finding's concept exists;
	// Until, the release tag from which it is gone (exclusive). At a
	// commit outside that range (by git ancestry) an unlocated finding is
	// absent, not missing.
	Since string `yaml:"since,omitempty"`
	Until string `yaml:"until,omitempty"`
	// Reviewed maps record ids (shape/id for a definition with shapes,
	// see ReviewKey) to the facts and code the prose was checked against.
	Reviewed map[string]Reviewed `yaml:"reviewed,omitempty"`

	// Source is the file the definition was read from, for error messages.
	Source string `yaml:"-"`
	// Order is the definition's position in the catalog.
	Order int `yaml:"-"`
	// ShapeName is set on the views Forms returns: the shape the view
	// is, "" for a definition without shapes.
	ShapeName string `yaml:"-"`
	// SearchFrom is set on the views Forms returns: the shape's
	// SearchFrom.
	SearchFrom string `yaml:"-"`
}

// Shape is one form of a finding's code in opencode's history (a
// namespace member before a module function, zod before Effect Schema, a
// file before it was split). Each shape has its own path hints, query and
// facts; claim, when and caveat are the shape's where the behaviour
// differs, else the definition's. An empty path takes the definition's
// path and candidates; facts left out take the definition's.
type Shape struct {
	// Name is a short kebab-case name, recorded as the record's shape.
	Name       string     `yaml:"name"`
	Path       string     `yaml:"path,omitempty"`
	Candidates []string   `yaml:"candidates,omitempty"`
	Query      string     `yaml:"query"`
	Facts      []FactSpec `yaml:"facts,omitempty"`
	Claim      string     `yaml:"claim,omitempty"`
	When       string     `yaml:"when,omitempty"`
	Caveat     string     `yaml:"caveat,omitempty"`
	// SearchFrom is a release tag no older than the shape's code: at a
	// commit git ancestry places before it, the shape is looked for at
	// its own paths only, never by the tree search that follows a moved
	// file (in the history before a shape's code existed, a search
	// could only parse files in vain). It bounds the work; it says
	// nothing about the finding, and a shape matched at its paths before
	// it is located as anywhere else.
	SearchFrom string `yaml:"search_from,omitempty"`
}

// Forms returns the definition as each of its shapes sees it, in the
// order they are tried (newest first): copies whose path, candidates,
// query, facts and prose are the shape's where it gives them, with Shapes
// cleared and ShapeName set. A definition without shapes is its only
// form.
func (d *Definition) Forms() []*Definition {
	if len(d.Shapes) == 0 {
		return []*Definition{d}
	}
	out := make([]*Definition, 0, len(d.Shapes))
	for _, s := range d.Shapes {
		v := *d
		v.Shapes = nil
		v.ShapeName = s.Name
		v.SearchFrom = s.SearchFrom
		v.Query = s.Query
		if s.Path != "" {
			v.Path, v.Candidates = s.Path, s.Candidates
		}
		if s.Facts != nil {
			v.Facts = s.Facts
		}
		for _, f := range []struct {
			dst *string
			src string
		}{{&v.Claim, s.Claim}, {&v.When, s.When}, {&v.Caveat, s.Caveat}} {
			if strings.TrimSpace(f.src) != "" {
				*f.dst = f.src
			}
		}
		out = append(out, &v)
	}
	return out
}

// ReviewKey is the key of a record's reviewed facts: the record id, or
// for a definition with shapes shape/id, so each shape's facts are kept
// (and accepted) apart.
func ReviewKey(shape, id string) string {
	if shape == "" {
		return id
	}
	return shape + "/" + id
}

// ReviewShape returns the shape a review key belongs to ("" for none).
func ReviewShape(key string) string {
	shape, _, ok := strings.Cut(key, "/")
	if !ok {
		return ""
	}
	return shape
}

// FactSpec declares a derived fact: values taken from a capture, optionally
// through a sub-query run inside that capture's nodes, optionally shaped into
// rows of named fields, optionally transformed.
type FactSpec struct {
	// Name is the fact's key in the record.
	Name string `yaml:"name"`
	// In names the capture (of the enclosing match) whose nodes the
	// sub-query searches; empty means the finding's whole span.
	In string `yaml:"in,omitempty"`
	// Query is a tree-sitter query run inside In; empty means the values
	// come straight from Capture of the enclosing match.
	Query string `yaml:"query,omitempty"`
	// Capture names the capture whose nodes give the values. With a Query
	// and no Fields it defaults to the query's only public capture.
	Capture string `yaml:"capture,omitempty"`
	// Value transforms each node: "" (literal: strings unquoted, numbers as
	// numbers, else source text), "text" (source text), "number" (constant
	// arithmetic evaluated), "import" (identifier → repo path it is imported
	// from), "lines" (source text, one list item per line), "guards" (the
	// conditions of the if statements and conditional expressions that
	// enclose the node within its function, outermost first), "expr" (an
	// expression as a small structured tree of ops: or/and/not, comparisons,
	// calls, refs, literals, and "unknown" with the source text for the rest).
	Value string `yaml:"value,omitempty"`
	// Fields, when set, turn each sub-query match into an object; the fact
	// is the list of them, in source order (absent when empty, unless
	// List is set).
	Fields []FactSpec `yaml:"fields,omitempty"`
	// List keeps a single value as a one-item list.
	List bool `yaml:"list,omitempty"`
	// Unique drops repeated values, keeping the first.
	Unique bool `yaml:"unique,omitempty"`
	// Scope "file" runs Query over the whole file the finding's query
	// matched instead of the span, for a value the cited lines use but
	// do not define. Empty means the span (or the nodes of In).
	Scope string `yaml:"scope,omitempty"`
	// Root names a capture of Query that must be the In node itself, so
	// the pattern matches at the top of that node and not in any nested
	// descendant (a direct return, not one in a nested block).
	Root string `yaml:"root,omitempty"`
	// Where keeps only the sub-query matches in which each named capture
	// of Query has the same source text as the given capture of the
	// enclosing match (a join: the import's identifier = the one returned).
	Where map[string]string `yaml:"where,omitempty"`
	// Required drops a match whose value for this fact is empty: the match
	// is not a finding (for expect: all, one record fewer).
	Required bool `yaml:"required,omitempty"`
}

// Value transforms accepted in FactSpec.Value.
var valueKinds = map[string]bool{"": true, "text": true, "number": true, "import": true, "lines": true, "guards": true, "expr": true}

// Facts maps fact names to values: strings, numbers, lists and objects.
type Facts map[string]any

var idPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// DefinitionError reports a problem with one definition file.
type DefinitionError struct {
	File string
	Err  error
}

func (e *DefinitionError) Error() string {
	return fmt.Sprintf("definition %s: %v (fix the definition file)", e.File, e.Err)
}

func (e *DefinitionError) Unwrap() error { return e.Err }

// Catalog is the ordered set of definitions a build runs.
type Catalog struct {
	Definitions []*Definition
	// Dir is where the definitions came from ("" for the embedded set).
	Dir string

	enc encodings // see Encodings
}

// Embedded returns the catalog compiled into the binary.
func Embedded() (*Catalog, error) {
	sub, err := fs.Sub(embedded, "defs")
	if err != nil {
		return nil, err
	}
	return Load(sub, "")
}

// Load reads every *.yaml file in fsys as a definition, validates each and
// the set, and orders them by page, then file name.
func Load(fsys fs.FS, dir string) (*Catalog, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no definitions (*.yaml) in %s", displayDir(dir))
	}
	sort.Strings(names)
	cat := &Catalog{Dir: dir}
	files := make([]string, len(names))
	datas := make([][]byte, len(names))
	for i, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read definition %s: %w", name, err)
		}
		files[i], datas[i] = name, data
		if dir != "" {
			files[i] = path.Join(dir, name)
		}
	}
	// Parsed on all cores (YAML decoding is most of loading a catalog);
	// the first error in file order is reported.
	defs := make([]*Definition, len(names))
	errs := make([]error, len(names))
	par.ForEach(len(names), par.Workers(), func(i int) {
		defs[i], errs[i] = Parse(datas[i], files[i])
	})
	seen := map[string]string{}
	for i, d := range defs {
		file := files[i]
		if errs[i] != nil {
			return nil, errs[i]
		}
		if prev, ok := seen[d.ID]; ok {
			return nil, &DefinitionError{File: file, Err: fmt.Errorf("duplicate id %q (also in %s)", d.ID, prev)}
		}
		seen[d.ID] = file
		cat.Definitions = append(cat.Definitions, d)
	}
	pageIndex := map[string]int{}
	for i, p := range Pages {
		pageIndex[p] = i
	}
	sort.SliceStable(cat.Definitions, func(i, j int) bool {
		return pageIndex[cat.Definitions[i].Page] < pageIndex[cat.Definitions[j].Page]
	})
	for i, d := range cat.Definitions {
		d.Order = i
	}
	return cat, nil
}

func displayDir(dir string) string {
	if dir == "" {
		return "the embedded catalog"
	}
	return dir
}

// Parse decodes and validates one definition; file names it in errors.
func Parse(data []byte, file string) (*Definition, error) {
	var d Definition
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&d); err != nil {
		return nil, &DefinitionError{File: file, Err: fmt.Errorf("parse: %s", mdtext.OneLine(err.Error()))}
	}
	d.Source = file
	if err := d.validate(); err != nil {
		return nil, &DefinitionError{File: file, Err: err}
	}
	return &d, nil
}

func (d *Definition) validate() error {
	switch {
	case d.ID == "":
		return errors.New("missing id")
	case !idPattern.MatchString(d.ID):
		return fmt.Errorf("id %q is not a kebab-case slug", d.ID)
	case d.Title == "":
		return errors.New("missing title")
	case d.Claim == "":
		return errors.New("missing claim")
	case d.When == "":
		return errors.New("missing when")
	case d.Section == "":
		return errors.New("missing section")
	case d.Path == "" && len(d.Shapes) == 0:
		return errors.New("missing path")
	case d.Query == "" && len(d.Shapes) == 0:
		return errors.New("missing query")
	case d.Query != "" && len(d.Shapes) > 0:
		return errors.New("query beside shapes: with shapes, each shape holds its query; move this one into a shape")
	}
	if err := d.validateShapes(); err != nil {
		return err
	}
	if err := validateRange(d.Since, d.Until); err != nil {
		return err
	}
	// Titles and sections are shown as plain text everywhere (headings,
	// contents lists, <title>, the releases picture); Markdown in them
	// would show literally.
	for _, f := range []struct{ name, text string }{{"title", d.Title}, {"section", d.Section}} {
		if strings.Contains(f.text, "`") {
			return fmt.Errorf("%s %q is plain text: Markdown such as backticks would show literally; write it without them", f.name, f.text)
		}
	}
	if d.ModelText && d.File == "" {
		return errors.New("model_text: true needs file: (the capture naming the text file the model reads); a span of code is not text the model reads as it is")
	}
	if !contains(Pages, d.Page) {
		return fmt.Errorf("unknown page %q (want one of %s)", d.Page, strings.Join(Pages, ", "))
	}
	if d.Expect == "" {
		d.Expect = ExpectOne
	}
	if d.Expect != ExpectOne && d.Expect != ExpectAll {
		return fmt.Errorf("expect %q: want %q or %q", d.Expect, ExpectOne, ExpectAll)
	}
	if err := validatePaths(d.Path, d.Candidates); err != nil {
		return err
	}
	return validateFacts(d.Facts)
}

func validatePaths(p string, candidates []string) error {
	for _, p := range append([]string{p}, candidates...) {
		if p == "" {
			continue
		}
		if path.IsAbs(p) || path.Clean(p) != p || strings.HasPrefix(p, "../") || p == ".." {
			return fmt.Errorf("path %q must be a clean repo-relative path", p)
		}
	}
	return nil
}

func validateFacts(facts []FactSpec) error {
	names := map[string]bool{}
	for _, f := range facts {
		if err := f.validate("facts"); err != nil {
			return err
		}
		if names[f.Name] {
			return fmt.Errorf("fact %q declared twice", f.Name)
		}
		names[f.Name] = true
	}
	return nil
}

// validateShapes checks each shape; errors name it.
func (d *Definition) validateShapes() error {
	seen := map[string]bool{}
	for i, s := range d.Shapes {
		where := fmt.Sprintf("shape %d", i+1)
		if s.Name != "" {
			where = fmt.Sprintf("shape %q", s.Name)
		}
		var err error
		switch {
		case s.Name == "":
			err = errors.New("missing name")
		case !idPattern.MatchString(s.Name):
			err = errors.New("name is not a kebab-case slug")
		case seen[s.Name]:
			err = errors.New("name used twice")
		case s.Query == "":
			err = errors.New("missing query")
		case s.Path == "" && d.Path == "":
			err = errors.New("missing path (give the shape a path, or the definition one for every shape)")
		case s.Path == "" && len(s.Candidates) > 0:
			err = errors.New("candidates without a path")
		}
		if err == nil {
			err = validatePaths(s.Path, s.Candidates)
		}
		if err == nil {
			err = validateFacts(s.Facts)
		}
		if err == nil {
			err = d.validateSearchFrom(s.SearchFrom)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		seen[s.Name] = true
	}
	return nil
}

// validateSearchFrom checks a shape's search_from: a release tag inside
// the definition's since/until range, after since (before it the tree
// search is off already).
func (d *Definition) validateSearchFrom(tag string) error {
	switch {
	case tag == "":
		return nil
	case !semver.IsValid(tag):
		return fmt.Errorf("search_from %q is not a release tag such as v1.15.5", tag)
	case d.Since != "" && semver.Compare(tag, d.Since) <= 0:
		return fmt.Errorf("search_from %s is not after since %s, where the tree search starts anyway: drop it", tag, d.Since)
	case d.Until != "" && semver.Compare(tag, d.Until) >= 0:
		return fmt.Errorf("search_from %s is not before until %s: the shape would never be searched for; drop it or fix the tag", tag, d.Until)
	}
	return nil
}

// validateRange checks since and until: release tags (vMAJOR.MINOR.PATCH),
// since before until.
func validateRange(since, until string) error {
	for _, f := range []struct{ name, tag string }{{"since", since}, {"until", until}} {
		if f.tag != "" && !semver.IsValid(f.tag) {
			return fmt.Errorf("%s %q is not a release tag such as v1.15.5", f.name, f.tag)
		}
	}
	if since != "" && until != "" && semver.Compare(since, until) >= 0 {
		return fmt.Errorf("since %s is not before until %s: the range is empty", since, until)
	}
	return nil
}

func (f *FactSpec) validate(where string) error {
	if f.Name == "" {
		return fmt.Errorf("%s: a fact without a name", where)
	}
	if strings.HasPrefix(f.Name, "_") {
		return fmt.Errorf("%s: fact %q: names with a leading underscore are reserved (for private captures and the reviewed section's %s)", where, f.Name, CodeKey)
	}
	if !valueKinds[f.Value] {
		return fmt.Errorf("fact %q: unknown value kind %q (want text, number, import, lines or guards)", f.Name, f.Value)
	}
	switch {
	case f.Scope != "" && f.Scope != "file":
		return fmt.Errorf("fact %q: scope %q: want \"file\" or nothing", f.Name, f.Scope)
	case f.Scope != "" && f.In != "":
		return fmt.Errorf("fact %q: scope: file and in: exclude each other", f.Name)
	case (f.Scope != "" || f.Root != "" || len(f.Where) > 0) && f.Query == "":
		return fmt.Errorf("fact %q: scope, root and where need a query", f.Name)
	case f.Root != "" && f.In == "":
		return fmt.Errorf("fact %q: root needs in: (the node the pattern is anchored at)", f.Name)
	case f.Required && where != "facts":
		return fmt.Errorf("%s: fact %q: required applies to top-level facts only", where, f.Name)
	}
	if f.Query == "" && f.Capture == "" && len(f.Fields) == 0 {
		return fmt.Errorf("fact %q: needs a capture, a query or fields", f.Name)
	}
	for i := range f.Fields {
		if err := f.Fields[i].validate("fact " + f.Name); err != nil {
			return err
		}
	}
	return nil
}

// IsReserved reports whether a capture name has a fixed meaning (span
// captures, the key and file captures) or is private (leading underscore),
// and so does not become a fact on its own.
func (d *Definition) IsReserved(capture string) bool {
	switch capture {
	case "finding", "start", "end":
		return true
	}
	return strings.HasPrefix(capture, "_") || (d.Key != "" && capture == d.Key) || (d.File != "" && capture == d.File)
}

// Find returns the definition with the given id, or nil.
func (c *Catalog) Find(id string) *Definition {
	for _, d := range c.Definitions {
		if d.ID == id {
			return d
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Pin is the upstream source used when no --repo is given.
type Pin struct {
	Repo   string `yaml:"repo"`
	Ref    string `yaml:"ref"`
	Commit string `yaml:"commit"`
	// Name is how page titles call the upstream ("… · opencode").
	Name string `yaml:"name"`
	// VersionFile is the package.json whose "version" a build records as
	// source.version.
	VersionFile string `yaml:"version_file"`
	// LicenseFile is the licence file a build records as source.license
	// and the site copies to upstream-license.txt.
	LicenseFile string `yaml:"license_file"`
}

// DefaultPin returns the pin compiled into the binary.
func DefaultPin() Pin {
	var p Pin
	if err := yaml.Unmarshal(pinData, &p); err != nil {
		panic(fmt.Sprintf("embedded pin.yaml: %v", err))
	}
	return p
}

//go:embed routes.yaml
var routesData []byte

// RoutesData returns the embedded routes data (routes.yaml): the inputs
// and representative models that `keyfindings route` and the routes page
// evaluate the catalog's rules for.
func RoutesData() []byte { return routesData }

// ReviewOf is the review verdict of the record under key (ReviewKey: its
// id, or shape/id for a definition with shapes) with the given facts under
// definition d: "" when the facts are those d was reviewed against,
// ReviewNeeded when they differ, ReviewMissing when d has none for key.
// Builds put it on the record; Reviews lists the records it flags.
func ReviewOf(d *Definition, key string, facts Facts) string {
	reviewed, ok := d.Reviewed[key]
	switch {
	case !ok:
		return ReviewMissing
	case !EqualFacts(reviewed.Facts, facts):
		return ReviewNeeded
	}
	return ""
}

// HasShape reports whether the definition has a shape of that name.
func (d *Definition) HasShape(name string) bool {
	for _, s := range d.Shapes {
		if s.Name == name {
			return true
		}
	}
	return false
}
