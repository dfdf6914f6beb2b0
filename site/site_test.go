package site

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/keyfindings/keyfindings/findings"
)

// TestDeterministic renders twice, and once from a document whose facts
// still have the Go types a build produces, and wants the same bytes.
func TestDeterministic(t *testing.T) {
	a, err := RenderWith(readFixture(t, "findings.json"), testLicense, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := RenderWith(readFixture(t, "findings.json"), testLicense, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s differs between two renders", name)
		}
	}

	doc := readFixture(t, "findings.json")
	rec := doc.Find("tool-list")
	rec.Facts = findings.Facts{
		"builtin": []string{"ReadTool", "WriteTool", "ShellTool"}, "custom_glob": "{tool,tools}/*.{js,ts}",
		"gates": map[string]string{"ShellTool": "flags.shell"}, "limit": 51200, "ratio": 0.5, "enabled": true,
		"missing": nil, "empty": []string{}, "nested": [][]string{{"a", "b"}, {"c"}},
	}
	c, err := RenderWith(doc, testLicense, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name := range a {
		if !bytes.Equal(a[name], c[name]) {
			t.Errorf("%s differs when facts have Go types: %s", name, firstDiff(c[name], a[name]))
		}
	}
	wd, _ := os.Getwd()
	for name, data := range a {
		for _, local := range []string{wd, os.TempDir(), "/home/", "/root/"} {
			if bytes.Contains(data, []byte(local)) {
				t.Errorf("%s contains the local path %s", name, local)
			}
		}
	}
}

// TestRenderDoesNotChangeDocument: the templates get a decoded copy of
// findings.json, never the caller's document.
func TestRenderDoesNotChangeDocument(t *testing.T) {
	doc := readFixture(t, "findings.json")
	before, _ := json.Marshal(doc)
	if _, err := RenderWith(doc, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	after, _ := json.Marshal(doc)
	if !bytes.Equal(before, after) {
		t.Error("Render changed the document")
	}
}

// snapshot reads every file under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[strings.TrimPrefix(p, dir)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFailedRenderKeepsSite: a render that fails (bad template, failing
// write) leaves the previous site byte-identical and no temporary
// directories beside it.
func TestFailedRenderKeepsSite(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "site")
	files, err := RenderWith(readFixture(t, "findings.json"), testLicense, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteDir(out, files, false); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, out)

	for name, tmpl := range map[string]string{
		"parse error":     "{{if}}",
		"execution error": "{{template \"no-such-template\" .}}",
		"bad field":       "{{.NoSuchField}}",
		"bad anchor":      "{{heading 2 \"x\" \"not an id!\"}}",
	} {
		override := fstest.MapFS{"index.md.tmpl": {Data: []byte(tmpl)}}
		files, err := RenderWith(readFixture(t, "findings.json"), testLicense, Options{Templates: override})
		if err == nil {
			t.Errorf("%s: render succeeded", name)
			if err := WriteDir(out, files, false); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A write that fails part-way (after some files went to the temporary
	// directory) must not touch the site either.
	bad := Files{}
	for name, data := range files {
		bad[name] = append([]byte("changed "), data...)
	}
	bad["zz/../../escape"] = []byte("x")
	if err := WriteDir(out, bad, false); err == nil {
		t.Error("WriteDir accepted a path outside the site")
	}

	if after := snapshot(t, out); !mapsEqual(before, after) {
		t.Error("the previous site changed")
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left beside the site: %v", names)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestTemplateOverride replaces templates file by file.
func TestTemplateOverride(t *testing.T) {
	override := fstest.MapFS{
		"index.md.tmpl": {Data: []byte("# Custom index\n\n{{len .Doc.Findings}} records; {{template \"extra\" .}}\n")},
		"extra.md.tmpl": {Data: []byte(`{{define "extra"}}from an added file{{end}}`)},
		"style.css":     {Data: []byte("body { color: green; }\n")},
		"sections.txt":  {Data: []byte("Reasoning, history and export\n")},
	}
	files, err := RenderWith(readFixture(t, "findings.json"), testLicense, Options{Templates: override})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(files["index.html"], []byte("<h1>Custom index</h1>\n<p>11 records; from an added file</p>")) {
		t.Errorf("index.html does not use the override:\n%s", files["index.html"])
	}
	if !bytes.HasPrefix(files["style.css"], []byte("body { color: green; }\n")) {
		t.Error("style.css does not use the override")
	}
	md := string(files["findings.md"])
	if i, j := strings.Index(md, "## <a id=\"reasoning-history-and-export\">"), strings.Index(md, "## <a id=\"how-the-system-prompt-is-chosen\">"); i < 0 || j < 0 || i > j {
		t.Error("sections.txt override does not put its section first")
	}
	def, err := RenderWith(readFixture(t, "findings.json"), testLicense, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(files["tools.html"], def["tools.html"]) {
		t.Error("tools.html changed although its templates were not overridden")
	}
}

func TestRenderErrors(t *testing.T) {
	for name, edit := range map[string]func(*findings.Document){
		"unknown page": func(d *findings.Document) { d.Findings[0].Page = "elsewhere" },
		"duplicate id": func(d *findings.Document) { d.Findings[1].ID = d.Findings[0].ID },
		"bad id":       func(d *findings.Document) { d.Findings[0].ID = `x" onclick="y` },
	} {
		doc := readFixture(t, "findings.json")
		edit(doc)
		if _, err := RenderWith(doc, nil, Options{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestSectionAnchors: sections whose titles slug alike, or like a record
// id, still get distinct anchors, the same on the index and the pages.
func TestSectionAnchors(t *testing.T) {
	doc := readFixture(t, "findings.json")
	doc.Findings[0].Section = "Tool list"
	doc.Findings[1].Section = "Tool-list"
	doc.Findings[2].Section = "tool list!"
	files, err := RenderWith(doc, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	index := string(files["index.html"])
	for _, id := range []string{`id="tool-list"`, `id="tool-list-2"`, `id="tool-list-3"`, `id="tool-list-4"`} {
		if strings.Count(index, id) != 1 {
			t.Errorf("index.html has %d of %s", strings.Count(index, id), id)
		}
	}
	if !strings.Contains(string(files["prompts.html"]), `<h2 id="tool-list-2">Tool list</h2>`) {
		t.Error("prompts.html does not use the index's anchor for its section")
	}
}

// TestUnknownTemplateFile: a file among the override templates that no
// page would use (a misspelt name, an added template with a body) is an
// error that names it and lists the template files; an added file of
// definitions and hidden files are fine.
func TestUnknownTemplateFile(t *testing.T) {
	partial := &fstest.MapFile{Data: []byte(`{{/* mine */}}` + "\n" + `{{define "extra"}}x{{end}}` + "\n")}
	for _, tc := range []struct {
		name    string
		fsys    fstest.MapFS
		bad     string
		hasBody bool
	}{
		{"misspelt template", fstest.MapFS{"indx.md.tmpl": {Data: []byte("# My index\n")}}, "indx.md.tmpl", true},
		{"misspelt stylesheet", fstest.MapFS{"style.cs": {Data: []byte("body {}\n")}}, "style.cs", false},
		{"wrong extension", fstest.MapFS{"index.md.tpml": {Data: []byte("# My index\n")}}, "index.md.tpml", false},
		{"partials and hidden files", fstest.MapFS{"extra.md.tmpl": partial, "extra.html.tmpl": partial, ".DS_Store": {Data: []byte{0}}}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := RenderWith(readFixture(t, "findings.json"), nil, Options{Templates: tc.fsys})
			if tc.bad == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var unknown *UnknownTemplateError
			if !errors.As(err, &unknown) || unknown.File != tc.bad || unknown.Body != tc.hasBody {
				t.Fatalf("error = %v, want an UnknownTemplateError for %s", err, tc.bad)
			}
			for _, want := range []string{tc.bad, "index.md.tmpl", "partials.md.tmpl", "style.css", "sections.txt"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not name %s", err, want)
				}
			}
		})
	}
}
