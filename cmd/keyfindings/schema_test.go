package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaFile is the published JSON Schema of findings.json.
const schemaFile = "../../findings.schema.json"

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	s, err := c.Compile(schemaFile)
	if err != nil {
		t.Fatalf("compile %s: %v", schemaFile, err)
	}
	return s
}

// validateJSON reports why data does not satisfy the schema, or nil.
func validateJSON(s *jsonschema.Schema, data []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

func mustValidate(t *testing.T, s *jsonschema.Schema, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := validateJSON(s, data); err != nil {
		t.Errorf("%s does not satisfy %s:\n%v", file, schemaFile, err)
	}
	return data
}

// buildJSON runs keyfindings build and returns the findings.json it wrote.
func buildJSON(t *testing.T, args ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "site")
	args = append([]string{"build", "--out", out, "--quiet"}, args...)
	if code, _, stderr := runCmd(args...); code != 0 {
		t.Fatalf("keyfindings %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return filepath.Join(out, "findings.json")
}

// decodeMap reads findings.json as generic JSON, to check what the schema
// is being shown.
func decodeMap(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func records(m map[string]any) []map[string]any {
	var out []map[string]any
	for _, r := range m["findings"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

// TestSchemaPlainDirectory validates a build of the whole catalog over the
// fixture tree: a plain directory, so commit and permalinks are null.
func TestSchemaPlainDirectory(t *testing.T) {
	s := compileSchema(t)
	m := decodeMap(t, mustValidate(t, s, buildJSON(t, "--repo", catalogTree, "--strict")))
	if c := m["source"].(map[string]any)["commit"]; c != nil {
		t.Fatalf("commit = %v, want null for a plain directory", c)
	}
	if len(records(m)) == 0 {
		t.Fatal("the catalog fixture gave no records")
	}
}

// TestSchemaGitFixture validates builds of every commit of the git fixture:
// commits, permalinks, and records located, missing and moved.
func TestSchemaGitFixture(t *testing.T) {
	s := compileSchema(t)
	f := newFixture(t)
	statuses := map[string]bool{}
	for _, tag := range fixtureTags {
		m := decodeMap(t, mustValidate(t, s, buildJSON(t, append(f.src(), "--ref", tag)...)))
		for _, r := range records(m) {
			statuses[r["status"].(string)] = true
		}
	}
	if !statuses["located"] || !statuses["missing"] {
		t.Errorf("statuses seen %v: want located and missing records to be validated", statuses)
	}
}

// TestSchemaGoldenFiles validates every findings.json kept under testdata/.
func TestSchemaGoldenFiles(t *testing.T) {
	s := compileSchema(t)
	n := 0
	err := filepath.WalkDir("../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "findings.json" {
			return err
		}
		n++
		mustValidate(t, s, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no findings.json under testdata/")
	}
}

// TestSchemaRealHistory validates builds of the real history at the pin
// and at v1.0.0, an old release where many findings are missing.
func TestSchemaRealHistory(t *testing.T) {
	repo := realRepo(t)
	s := compileSchema(t)
	for _, ref := range []string{"v1.18.3", "v1.0.0"} {
		t.Run(ref, func(t *testing.T) {
			mustValidate(t, s, buildJSON(t, "--repo", repo, "--ref", ref))
		})
	}
}

// TestSchemaRejects checks that the schema is not too loose: each change
// to a valid build below makes it invalid, and the optional fields being
// added to findings.json are accepted in their exact form only.
func TestSchemaRejects(t *testing.T) {
	s := compileSchema(t)
	f := newFixture(t)
	data, err := os.ReadFile(buildJSON(t, append(f.src(), "--ref", fixtureTags[len(fixtureTags)-1])...))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := os.ReadFile(buildJSON(t, "--repo", filepath.Join(fixtureDir, "history", "3"), "--defs", fixtureDefs))
	if err != nil {
		t.Fatal(err)
	}
	hex64 := strings.Repeat("ab", 32)
	tests := []struct {
		name  string
		doc   []byte
		edit  func(doc map[string]any, located, other map[string]any)
		valid bool
	}{
		{"unchanged", data, func(_, _, _ map[string]any) {}, true},
		{"located without sha256", data, func(_, l, _ map[string]any) { delete(l, "sha256") }, false},
		{"located with null sha256", data, func(_, l, _ map[string]any) { l["sha256"] = nil }, false},
		{"sha256 of 63 hex digits", data, func(_, l, _ map[string]any) { l["sha256"] = hex64[:63] }, false},
		{"sha256 in upper case", data, func(_, l, _ map[string]any) { l["sha256"] = strings.ToUpper(hex64) }, false},
		{"bad status", data, func(_, l, _ map[string]any) { l["status"] = "found" }, false},
		{"located without lines", data, func(_, l, _ map[string]any) { l["lines"] = nil }, false},
		{"located without excerpt", data, func(_, l, _ map[string]any) { l["excerpt"] = nil }, false},
		{"missing with lines", data, func(_, _, o map[string]any) { o["lines"] = map[string]any{"start": 1, "end": 2} }, false},
		{"missing without a problem", data, func(_, _, o map[string]any) { o["problem"] = nil }, false},
		{"unknown field", data, func(_, l, _ map[string]any) { l["sha"] = hex64 }, false},
		{"facts that are not an object", data, func(_, l, _ map[string]any) { l["facts"] = []any{"a"} }, false},
		{"facts of every kind", data, func(_, l, _ map[string]any) {
			l["facts"] = map[string]any{"s": "a", "n": 1.5, "b": true, "l": []any{"a", 2}, "rows": []any{map[string]any{"k": "v"}}}
		}, true},
		{"short commit", data, func(d, _, _ map[string]any) { d["source"].(map[string]any)["commit"] = "127bdb3" }, false},
		{"plain directory with a permalink", plain, func(_, l, _ map[string]any) {
			l["permalink"] = "https://example.com/r/blob/" + strings.Repeat("a", 40) + "/x.ts#L1-L2"
		}, false},
		{"keyfindings field", data, func(d, _, _ map[string]any) {
			d["keyfindings"] = map[string]any{"version": "v0.1.0", "catalog": hex64}
		}, true},
		{"keyfindings catalog of 63 hex digits", data, func(d, _, _ map[string]any) {
			d["keyfindings"] = map[string]any{"version": "v0.1.0", "catalog": hex64[:63]}
		}, false},
		{"keyfindings without version", data, func(d, _, _ map[string]any) {
			d["keyfindings"] = map[string]any{"catalog": hex64}
		}, false},
		{"tokens", data, func(_, l, o map[string]any) {
			l["tokens"] = map[string]any{"o200k_base": 12, "cl100k_base": 13}
			o["tokens"] = nil
		}, true},
		{"negative tokens", data, func(_, l, _ map[string]any) {
			l["tokens"] = map[string]any{"o200k_base": -1, "cl100k_base": 13}
		}, false},
		{"code_differs", data, func(_, l, _ map[string]any) {
			l["code_differs"] = map[string]any{"sha256": hex64, "at": "v1.0.0 (1234567)", "commit": strings.Repeat("a", 40)}
		}, true},
		{"code_differs read from a plain directory", data, func(_, l, _ map[string]any) {
			l["code_differs"] = map[string]any{"sha256": hex64, "at": "plain directory"}
		}, true},
		{"code_differs without at", data, func(_, l, _ map[string]any) {
			l["code_differs"] = map[string]any{"sha256": hex64}
		}, false},
		{"code_differs with a short sha256", data, func(_, l, _ map[string]any) {
			l["code_differs"] = map[string]any{"sha256": hex64[:12], "at": "v1"}
		}, false},
		{"code_differs on a record not located", data, func(_, _, o map[string]any) {
			o["code_differs"] = map[string]any{"sha256": hex64, "at": "v1"}
		}, false},
		{"tokens of one encoding", data, func(_, l, _ map[string]any) {
			l["tokens"] = map[string]any{"o200k_base": 12}
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := decodeMap(t, tc.doc)
			var located, other map[string]any
			for _, r := range records(doc) {
				switch {
				case r["status"] == "located" && located == nil:
					located = r
				case r["status"] != "located" && other == nil:
					other = r
				}
			}
			if located == nil || other == nil {
				t.Fatal("the build needs a located and an unlocated record for these cases")
			}
			tc.edit(doc, located, other)
			edited, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			err = validateJSON(s, edited)
			if tc.valid && err != nil {
				t.Errorf("rejected: %v", err)
			}
			if !tc.valid && err == nil {
				t.Error("accepted, want the schema to reject it")
			}
		})
	}
}
