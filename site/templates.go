package site

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	texttemplate "text/template"
	"text/template/parse"

	"github.com/keyfindings/keyfindings/templates"
)

// Template file names the renderer executes or copies.
const (
	indexTemplate    = "index.md.tmpl"
	pageTemplate     = "page.md.tmpl"
	findingsTemplate = "findings.md.tmpl"
	routesTemplate   = "routes.md.tmpl"
	layoutTemplate   = "layout.html.tmpl"
	styleFile        = "style.css"
	sectionsFile     = "sections.txt"
)

// templateSet is the parsed templates of one render.
type templateSet struct {
	// md holds every *.md.tmpl file; its functions are replaced per output
	// (HTML page or findings.md) on a clone.
	md *texttemplate.Template
	// html holds every *.html.tmpl file: the page shell and the excerpt.
	html *htmltemplate.Template
	// style is the site's stylesheet, before the highlighting rules.
	style []byte
	// sections is the index's section order.
	sections []string
}

// loadTemplates reads the embedded templates, each replaced by the file of
// the same name in override when it has one; further *.md.tmpl and
// *.html.tmpl files in override are parsed as well. Errors name the file.
func loadTemplates(override fs.FS) (*templateSet, error) {
	files := map[string][]byte{}
	origin := map[string]string{}
	read := func(fsys fs.FS, label string, known map[string]bool) error {
		entries, err := fs.ReadDir(fsys, ".")
		if err != nil {
			return fmt.Errorf("read templates: %w", err)
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || strings.HasPrefix(name, ".") {
				continue
			}
			if known != nil && !known[name] && !isPartialsName(name) {
				return &UnknownTemplateError{File: name, Known: slices.Sorted(maps.Keys(known))}
			}
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				return fmt.Errorf("read template %s: %w", name, err)
			}
			files[name] = data
			origin[name] = label + name
		}
		return nil
	}
	if err := read(templates.FS, "embedded ", nil); err != nil {
		return nil, err
	}
	embedded := map[string]bool{}
	for name := range files {
		embedded[name] = true
	}
	if override != nil {
		if err := read(override, "", embedded); err != nil {
			return nil, err
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)

	set := &templateSet{
		md:    texttemplate.New("").Option("missingkey=error").Funcs(placeholderFuncs()),
		html:  htmltemplate.New("").Option("missingkey=error"),
		style: files[styleFile],
	}
	for _, name := range names {
		var err error
		switch {
		case strings.HasSuffix(name, ".md.tmpl"):
			_, err = set.md.New(name).Parse(string(files[name]))
		case strings.HasSuffix(name, ".html.tmpl"):
			_, err = set.html.New(name).Parse(string(files[name]))
		}
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", origin[name], err)
		}
		if !embedded[name] && !onlyDefinitions(set, name) {
			return nil, &UnknownTemplateError{File: name, Known: slices.Sorted(maps.Keys(embedded)), Body: true}
		}
	}
	for _, need := range []string{indexTemplate, pageTemplate, findingsTemplate, routesTemplate} {
		if set.md.Lookup(need) == nil {
			return nil, fmt.Errorf("template %s is missing", need)
		}
	}
	for _, need := range []string{layoutTemplate, "excerpt"} {
		if set.html.Lookup(need) == nil {
			return nil, fmt.Errorf("HTML template %q is missing", need)
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(files[sectionsFile]))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			set.sections = append(set.sections, line)
		}
	}
	return set, nil
}

// UnknownTemplateError is a file among the override templates that
// keyfindings would not use: a name that is not one of the templates' (a
// misspelling, say), or an added template file with text outside its
// {{define}} blocks, which no page would ever show.
type UnknownTemplateError struct {
	// File is the file's name.
	File string
	// Known are the names of the files keyfindings reads.
	Known []string
	// Body is set for an added *.md.tmpl or *.html.tmpl file with text
	// outside {{define}} blocks.
	Body bool
}

func (e *UnknownTemplateError) Error() string {
	known := strings.Join(e.Known, ", ")
	if e.Body {
		return fmt.Sprintf("template file %s is not one of the template files (%s), and as an added file it may hold only {{define}} blocks but has text outside them: rename it or remove that text", e.File, known)
	}
	return fmt.Sprintf("unknown template file %s: rename it to one of the template files (%s) or remove it; added files are *.md.tmpl or *.html.tmpl files of {{define}} blocks", e.File, known)
}

// isPartialsName reports whether name may be an added template file.
func isPartialsName(name string) bool {
	return strings.HasSuffix(name, ".md.tmpl") || strings.HasSuffix(name, ".html.tmpl")
}

// onlyDefinitions reports whether the parsed file name holds nothing but
// {{define}} blocks (and space and comments between them).
func onlyDefinitions(set *templateSet, name string) bool {
	var tree *parse.Tree
	if t := set.md.Lookup(name); t != nil {
		tree = t.Tree
	} else if t := set.html.Lookup(name); t != nil {
		tree = t.Tree
	}
	return tree == nil || tree.Root == nil || parse.IsEmptyTree(tree.Root)
}

// placeholderFuncs declares the template functions so the templates parse;
// each render installs the working ones (see renderer.funcs).
func placeholderFuncs() texttemplate.FuncMap {
	m := texttemplate.FuncMap{}
	for name := range (&renderer{}).funcs(false) {
		m[name] = func(...any) (string, error) { return "", errors.New("template function called before render") }
	}
	return m
}

// TemplateDir returns the directory dir as Options.Templates, after
// checking that it is a directory whose files parse and are all ones
// keyfindings uses (see UnknownTemplateError), so a mistake shows before
// any source is read.
func TemplateDir(dir string) (fs.FS, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, &DirError{Role: TemplatesDir, Dir: dir, Problem: ": " + err.Error(), Err: err}
	}
	if !info.IsDir() {
		return nil, &DirError{Role: TemplatesDir, Dir: dir, Problem: " is not a directory"}
	}
	fsys := os.DirFS(dir)
	if _, err := loadTemplates(fsys); err != nil {
		return nil, &DirError{Role: TemplatesDir, Dir: dir, Problem: ": " + err.Error(), Err: err}
	}
	return fsys, nil
}
