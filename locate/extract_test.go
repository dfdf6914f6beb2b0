package locate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/source"

	"github.com/keyfindings/keyfindings/findings"
)

const fixtureTree = "../testdata/extract/tree"

func loadDefs(t testing.TB, dir string) *Extractor {
	t.Helper()
	cat, err := findings.Load(os.DirFS(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	x, err := Compile(cat)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// sedLines is an independent model of `sed -n 'a,bp'`: split after each
// newline and join the chosen lines.
func sedLines(data []byte, a, b int) []byte {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return bytes.Join(lines[a-1:b], nil)
}

func TestSpanBytes(t *testing.T) {
	tests := []struct {
		name       string
		data       string
		start, end int
		want       string
		wantErr    bool
	}{
		{"middle", "a\nb\nc\n", 2, 2, "b\n", false},
		{"range", "a\nb\nc\n", 1, 2, "a\nb\n", false},
		{"last line without newline", "a\nb\nc", 2, 3, "b\nc", false},
		{"only line without newline", "abc", 1, 1, "abc", false},
		{"crlf kept as is", "a\r\nb\r\nc\r\n", 2, 3, "b\r\nc\r\n", false},
		{"past the end", "a\nb\n", 2, 3, "", true},
		{"end before start", "a\nb\n", 2, 1, "", true},
		{"zero", "a\n", 0, 1, "", true},
		{"empty file", "", 1, 1, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := source.SpanBytes([]byte(tt.data), tt.start, tt.end)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("SpanBytes = %q, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("SpanBytes = %q, want %q", got, tt.want)
			}
			if model := sedLines([]byte(tt.data), tt.start, tt.end); string(model) != tt.want {
				t.Errorf("sed model = %q, want %q", model, tt.want)
			}
		})
	}
}

func extractDir(t *testing.T, x *Extractor, dir string) *findings.Document {
	t.Helper()
	res, err := x.Extract(source.NewDirSnapshot(dir), Meta{Repo: "https://github.com/example/opencode"})
	if err != nil {
		t.Fatal(err)
	}
	return res.Document
}

func TestLocateOutcomes(t *testing.T) {
	x := loadDefs(t, "../testdata/extract/defs")
	doc := extractDir(t, x, fixtureTree)
	tests := []struct {
		id         string
		status     findings.Status
		start, end int
		problem    string
	}{
		{"routing", findings.StatusLocated, 6, 9, ""},
		{"limits", findings.StatusLocated, 11, 14, ""},
		{"setup-span", findings.StatusLocated, 17, 18, ""},
		{"tool-overload", findings.StatusAmbiguous, 0, 0, "2 places match"},
		{"nothing-here", findings.StatusMissing, 0, 0, "no match in packages/opencode/src/tool/registry.ts"},
		{"gone-file", findings.StatusMissing, 0, 0, "file not found: packages/opencode/src/nowhere/gone.ts"},
	}
	data, err := os.ReadFile(filepath.Join(fixtureTree, "packages/opencode/src/session/system.ts"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			r := doc.Find(tt.id)
			if r == nil {
				t.Fatalf("no record %s", tt.id)
			}
			if r.Status != tt.status {
				t.Fatalf("status = %s (%v), want %s", r.Status, deref(r.Problem), tt.status)
			}
			if tt.status != findings.StatusLocated {
				if r.Problem == nil || !strings.Contains(*r.Problem, tt.problem) {
					t.Errorf("problem = %q, want it to contain %q", deref(r.Problem), tt.problem)
				}
				if r.Location != nil {
					t.Errorf("an unlocated record carries a span: %+v", r)
				}
				return
			}
			if r.Location.Lines.Start != tt.start || r.Location.Lines.End != tt.end {
				t.Errorf("lines = %d-%d, want %d-%d", r.Location.Lines.Start, r.Location.Lines.End, tt.start, tt.end)
			}
			want := sedLines(data, tt.start, tt.end)
			sum := sha256.Sum256(want)
			if r.Location.SHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("sha256 is not over the cited lines")
			}
			if r.Location.Excerpt != string(want) {
				t.Errorf("excerpt = %q, want %q", r.Location.Excerpt, want)
			}
			if r.Location.Permalink != "" || r.Location.MovedFrom != "" {
				t.Errorf("plain directory: permalink %v, moved_from %v, want both null", r.Location.Permalink, r.Location.MovedFrom)
			}
			if r.Location.Blob != source.BlobID(data) {
				t.Errorf("blob = %s, want the git blob id %s", r.Location.Blob, source.BlobID(data))
			}
		})
	}
	amb := doc.Find("tool-overload")
	if len(amb.Candidates) != 2 || amb.Candidates[0].Lines.Start != 1 || amb.Candidates[1].Lines.Start != 5 {
		t.Errorf("ambiguous candidates = %+v, want lines 1 and 5", amb.Candidates)
	}
	if doc.Source.Commit != nil || doc.Source.CommittedAt != nil {
		t.Errorf("plain directory has commit %v", doc.Source.Commit)
	}
	if doc.Source.Version == nil || *doc.Source.Version != "0.0.1-fixture" {
		t.Errorf("version = %v", doc.Source.Version)
	}
	if doc.Source.License == nil || doc.Source.License.Path != "LICENSE" {
		t.Errorf("license = %+v", doc.Source.License)
	}
}

func TestFacts(t *testing.T) {
	x := loadDefs(t, "../testdata/extract/defs")
	doc := extractDir(t, x, fixtureTree)
	check := func(id, fact string, want any) {
		t.Helper()
		r := doc.Find(id)
		got, _ := findings.Normalize(findings.Facts{"v": r.Facts[fact]})["v"], 0
		wantN := findings.Normalize(findings.Facts{"v": want})["v"]
		if !findings.EqualFacts(findings.Facts{"v": got}, findings.Facts{"v": wantN}) {
			t.Errorf("%s fact %s = %#v, want %#v", id, fact, got, want)
		}
	}
	check("routing", "tests", []any{"alpha", "a1"})
	check("routing", "fallback", "packages/opencode/src/session/prompt/base.txt")
	check("limits", "max_bytes", 51200)
	check("limits", "max_lines", 2000)
	check("setup-span", "files", []any{"AGENTS.md", "CONTEXT.md"})
	if _, ok := doc.Find("routing").Facts["_name"]; ok {
		t.Error("a private capture became a fact")
	}
}

func TestDeterministic(t *testing.T) {
	x := loadDefs(t, "../testdata/extract/defs")
	a, err := extractDir(t, x, fixtureTree).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	x2 := loadDefs(t, "../testdata/extract/defs")
	b, err := extractDir(t, x2, fixtureTree).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two extractions of the same tree differ")
	}
	if bytes.Contains(a, []byte(fixtureTree)) || bytes.Contains(a, []byte(os.TempDir())) {
		t.Error("output holds a local path")
	}
}

func TestHashRuleInFiles(t *testing.T) {
	x := loadDefs(t, "../testdata/extract/defs")
	cases := map[string]string{
		"no final newline": "export function provider() {\n  return [A]\n}",
		"crlf":             "export function provider() {\r\n  return [A]\r\n}\r\n",
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "packages/opencode/src/session/system.ts")
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(src), 0o644)
			r := extractDir(t, x, dir).Find("routing")
			if !r.Located() {
				t.Fatalf("status %s: %s", r.Status, deref(r.Problem))
			}
			if r.Location.Lines.Start != 1 || r.Location.Lines.End != 3 {
				t.Fatalf("lines = %+v", r.Location.Lines)
			}
			sum := sha256.Sum256([]byte(src))
			if r.Location.SHA256 != hex.EncodeToString(sum[:]) || r.Location.Excerpt != src {
				t.Errorf("hash/excerpt not over the exact bytes: %q", r.Location.Excerpt)
			}
		})
	}
}

func TestWarnings(t *testing.T) {
	x := loadDefs(t, "../testdata/extract/defs")
	dir := t.TempDir()
	p := filepath.Join(dir, "packages/opencode/src/session/system.ts")
	os.MkdirAll(filepath.Dir(p), 0o755)
	src := "export function provider() {\n  const s = \"\xff\xfe\"\n  if (x.includes(\"a\") return [A]\n  return [B]\n}\n"
	os.WriteFile(p, []byte(src), 0o644)
	r := extractDir(t, x, dir).Find("routing")
	if !r.Located() {
		t.Fatalf("status %s: %s", r.Status, deref(r.Problem))
	}
	joined := strings.Join(r.Warnings, "\n")
	if !strings.Contains(joined, "not valid UTF-8") || !strings.Contains(joined, "syntax error") {
		t.Errorf("warnings = %q, want UTF-8 and syntax warnings", r.Warnings)
	}
	sum := sha256.Sum256([]byte(src))
	if r.Location.SHA256 != hex.EncodeToString(sum[:]) {
		t.Error("sha256 must be over the raw bytes")
	}
	if !strings.Contains(r.Location.Excerpt, "\uFFFD") {
		t.Error("excerpt should replace invalid bytes with U+FFFD")
	}
}

func TestMovedFile(t *testing.T) {
	x := loadDefs(t, "../testdata/extract/defs")
	dir := t.TempDir()
	routing, _ := os.ReadFile(filepath.Join(fixtureTree, "packages/opencode/src/session/system.ts"))
	write := func(p string, data []byte) {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, data, 0o644)
	}
	// The file moved; a copy under a less similar path also matches, and
	// a file with the anchor but no match is ignored.
	write("packages/core/src/session/system.ts", routing)
	write("packages/other/src/agent/system-copy.ts", routing)
	write("packages/other/src/unrelated.ts", []byte("// provider\nexport const provider = 1\n"))
	r := extractDir(t, x, dir).Find("routing")
	if !r.Located() {
		t.Fatalf("status %s: %s", r.Status, deref(r.Problem))
	}
	if r.Location.Path != "packages/core/src/session/system.ts" || r.Location.MovedFrom == "" || r.Location.MovedFrom != "packages/opencode/src/session/system.ts" {
		t.Errorf("path %s moved_from %v", r.Location.Path, r.Location.MovedFrom)
	}
	// Two equally good places: ambiguous, both listed.
	write("packages/third/src/session/system.ts", routing)
	r = extractDir(t, x, dir).Find("routing")
	if r.Status != findings.StatusAmbiguous || len(r.Candidates) != 2 {
		t.Errorf("status %s candidates %+v, want ambiguous with 2", r.Status, r.Candidates)
	}
}

func TestTooLarge(t *testing.T) {
	x := loadDefs(t, "../testdata/extract/defs")
	dir := t.TempDir()
	p := filepath.Join(dir, "packages/opencode/src/session/system.ts")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, bytes.Repeat([]byte("// x\n"), source.MaxBlobSize/5+10), 0o644)
	r := extractDir(t, x, dir).Find("routing")
	if r.Status != findings.StatusMissing || !strings.Contains(deref(r.Problem), "over the") {
		t.Errorf("status %s problem %q, want missing for size", r.Status, deref(r.Problem))
	}
}

func TestDefinitionErrors(t *testing.T) {
	base := `id: bad
page: prompts
section: S
title: T
claim: C
when: W
path: a.ts
`
	tests := []struct {
		name, yaml, want string
	}{
		{"yaml", "id: [", "parse"},
		{"unknown field", base + "query: (x) @finding\nbogus: 1\n", "bogus"},
		{"unknown page", strings.Replace(base, "prompts", "blog", 1) + "query: (identifier) @finding\n", `unknown page "blog"`},
		{"query", base + "query: (not_a_node) @finding\n", "query does not compile"},
		{"no span", base + "query: (identifier) @x\n", "@finding"},
		{"end before start", base + "query: |\n  (program (_) @end (_) @start)\n", "@end comes before @start"},
		{"unknown fact capture", base + "query: (identifier) @finding\nfacts:\n  - name: f\n    capture: nope\n", "unknown capture @nope"},
		{"markdown in title", strings.Replace(base, "title: T", "title: What `x` writes", 1) + "query: (identifier) @finding\n", "title \"What `x` writes\" is plain text"},
		{"bad regex", base + "query: |\n  ((identifier) @finding (#match? @finding \"(\"))\n", "bad regular expression"},
		{"model_text on code", base + "model_text: true\nquery: (identifier) @finding\n", "model_text: true needs file:"},
		{"model_text not a bool", base + "model_text: maybe\nquery: (identifier) @finding\n", "parse"},
		{"shape query", base + "shapes:\n  - name: new\n    query: (identifier) @finding\n  - name: old-form\n    query: (not_a_node) @finding\n", `shape "old-form": query does not compile`},
		{"shape span", base + "shapes:\n  - name: new\n    query: (identifier) @x\n", `shape "new": query needs a @finding`},
		{"shape fact", base + "shapes:\n  - name: new\n    query: (identifier) @finding\n    facts:\n      - name: f\n        capture: nope\n", `shape "new": fact "f": unknown capture @nope`},
		{"shape name", base + "shapes:\n  - query: (identifier) @finding\n", "shape 1: missing name"},
		{"shape name twice", base + "shapes:\n  - name: a\n    query: (identifier) @finding\n  - name: a\n    query: (identifier) @finding\n", `shape "a": name used twice`},
		{"query beside shapes", base + "query: (identifier) @finding\nshapes:\n  - name: a\n    query: (identifier) @finding\n", "query beside shapes"},
		{"shape without path", strings.Replace(base, "path: a.ts\n", "", 1) + "shapes:\n  - name: a\n    query: (identifier) @finding\n", `shape "a": missing path`},
		{"since", base + "since: 1.15\nquery: (identifier) @finding\n", `since "1.15" is not a release tag`},
		{"empty range", base + "since: v1.2.0\nuntil: v1.1.0\nquery: (identifier) @finding\n", "since v1.2.0 is not before until v1.1.0"},
		{"search_from", base + "shapes:\n  - name: a\n    search_from: 1.4\n    query: (identifier) @finding\n", `shape "a": search_from "1.4" is not a release tag`},
		{"search_from before since", base + "since: v1.2.0\nshapes:\n  - name: a\n    search_from: v1.2.0\n    query: (identifier) @finding\n", `shape "a": search_from v1.2.0 is not after since v1.2.0`},
		{"search_from at until", base + "until: v1.3.0\nshapes:\n  - name: a\n    search_from: v1.3.0\n    query: (identifier) @finding\n", `shape "a": search_from v1.3.0 is not before until v1.3.0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte(tt.yaml), 0o644)
			cat, err := findings.Load(os.DirFS(dir), dir)
			if err == nil {
				_, err = Compile(cat)
			}
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) || !strings.Contains(msg, "bad.yaml") || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line naming bad.yaml and %q", msg, tt.want)
			}
			var de *findings.DefinitionError
			if !errors.As(err, &de) {
				t.Errorf("error is %T, want *findings.DefinitionError", err)
			}
		})
	}
	// A duplicate id names both files.
	dir := t.TempDir()
	good := base + "query: (identifier) @finding\n"
	os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(good), 0o644)
	os.WriteFile(filepath.Join(dir, "b.yaml"), []byte(good), 0o644)
	if _, err := findings.Load(os.DirFS(dir), dir); err == nil || !strings.Contains(err.Error(), "duplicate id") {
		t.Errorf("duplicate ids: %v", err)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestSourceFactsFromPin: the files a document's version and licence come
// from are the pin's (findings/pin.yaml), not names in the code.
func TestSourceFactsFromPin(t *testing.T) {
	pin := findings.DefaultPin()
	if pin.VersionFile != "packages/opencode/package.json" || pin.LicenseFile != "LICENSE" || pin.Name != "opencode" {
		t.Fatalf("pin.yaml says %+v", pin)
	}
	dir := t.TempDir()
	for name, data := range map[string]string{
		"pkg/package.json":               "{\"version\": \"9.9.9\"}\n",
		"COPYING":                        "licence text\n",
		"packages/opencode/package.json": "{\"version\": \"1.0.0\"}\n",
		"LICENSE":                        "other licence\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	x := loadDefs(t, "../testdata/extract/defs")
	x.pin.VersionFile, x.pin.LicenseFile = "pkg/package.json", "COPYING"
	res, err := x.Extract(source.NewDirSnapshot(dir), Meta{})
	if err != nil {
		t.Fatal(err)
	}
	src := res.Document.Source
	if src.Version == nil || *src.Version != "9.9.9" || src.License == nil || src.License.Path != "COPYING" || string(res.License) != "licence text\n" {
		t.Errorf("version %v, licence %+v %q; want them from the pin's files", src.Version, src.License, res.License)
	}
}
