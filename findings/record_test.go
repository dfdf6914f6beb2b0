package findings

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestDecodeDocumentChecks refuses findings.json files that diff and
// verify would otherwise misread (a null record crashed them; a short
// hash let verify print ok), each with one line naming the record.
func TestDecodeDocumentChecks(t *testing.T) {
	hash := strings.Repeat("ab", 32)
	rec := func(extra string) string {
		return `{"schema":"keyfindings/v1","source":{"repo":"r","ref":"v","commit":null},"findings":[` + extra + `]}`
	}
	located := func(sha string) string {
		return `{"id":"a","status":"located","path":"x.ts","lines":{"start":1,"end":2},"sha256":"` + sha + `"}`
	}
	tests := []struct{ name, data, want string }{
		{"valid", rec(located(hash) + `,{"id":"b","status":"missing","problem":"no match in x.ts"}`), ""},
		{"null record", rec("null"), "finding 1 is null"},
		{"no id", rec(`{"status":"missing"}`), "finding 1 has no id"},
		{"unknown status", rec(`{"id":"a","status":"found"}`), `(a) has status "found"`},
		{"short hash", rec(located("6")), "(a) is located but its sha256 is not 64 lowercase hex digits"},
		{"no lines", rec(`{"id":"a","status":"located","path":"x.ts","sha256":"` + hash + `"}`), "no valid lines"},
		{"path outside the repository", rec(`{"id":"a","status":"located","path":"../../etc/passwd","lines":{"start":1,"end":1},"sha256":"` + hash + `"}`), `(a): path "../../etc/passwd" is not a clean repo-relative path`},
		{"a JSON array", `[{"id":"a"}]`, "f.json: not a findings.json (the file keyfindings build writes): it holds a JSON array"},
		{"not JSON", `{"schema": `, "the JSON ends early"},
		{"bad JSON", `{"schema" "x"}`, "not valid JSON (at byte"},
		{"another JSON object", `{"name":"opencode","version":"1.0.0"}`, `f.json: not a findings.json (the file keyfindings build writes): it has no "schema": "keyfindings/v1"`},
		{"findings not a list", `{"schema":"keyfindings/v1","findings":{}}`, "its field findings holds a JSON object where a findings.json has an array"},
		{"no path", rec(`{"id":"a","status":"located","lines":{"start":1,"end":1},"sha256":"` + hash + `"}`), "no path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeDocument([]byte(tt.data), "f.json")
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "f.json: ") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line naming f.json and %q", err, tt.want)
			}
		})
	}
}

// TestTokensRoundTrip: a record's token counts survive findings.json as
// {"o200k_base": N, "cl100k_base": M}, a record without them is written
// "tokens": null, and a file written before tokens existed still reads.
func TestTokensRoundTrip(t *testing.T) {
	hash := strings.Repeat("ab", 32)
	old := `{"schema":"keyfindings/v1","source":{"repo":"r","ref":"v","commit":null},"findings":[` +
		`{"id":"a","status":"located","path":"p.txt","lines":{"start":1,"end":2},"sha256":"` + hash + `","excerpt":"x\n"},` +
		`{"id":"b","status":"missing","problem":"gone"}]}`
	doc, err := DecodeDocument([]byte(old), "old.json")
	if err != nil {
		t.Fatalf("a findings.json without tokens: %v", err)
	}
	if doc.Findings[0].Location.Tokens != nil || doc.Findings[1].Location != nil {
		t.Fatalf("tokens from a file without them: %+v %+v", doc.Findings[0].Location.Tokens, doc.Findings[1].Location)
	}
	doc.Findings[0].Location.Tokens = &Tokens{O200kBase: 1916, Cl100kBase: 1950}
	data, err := doc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\"tokens\": {\n        \"o200k_base\": 1916,\n        \"cl100k_base\": 1950\n      }",
		"\"tokens\": null",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("findings.json lacks %q:\n%s", want, data)
		}
	}
	back, err := DecodeDocument(data, "new.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Findings[0].Location.Tokens; got == nil || *got != *doc.Findings[0].Location.Tokens {
		t.Errorf("tokens after a round trip = %+v, want %+v", got, doc.Findings[0].Location.Tokens)
	}
	if back.Findings[1].Location != nil {
		t.Errorf("a record without a location read back with %+v", back.Findings[1].Location)
	}
}

// TestNormalizeIsTheRoundTrip: Normalize copies facts that are JSON
// values already without encoding them, and gives what the round trip
// gives whatever the facts hold, and a copy that shares nothing with
// them.
func TestNormalizeIsTheRoundTrip(t *testing.T) {
	roundTrip := func(f Facts) Facts {
		data, err := json.Marshal(f)
		if err != nil {
			return f
		}
		var out Facts
		if err := json.Unmarshal(data, &out); err != nil || out == nil {
			t.Fatalf("round trip of %v: %v", f, err)
		}
		return out
	}
	cases := []Facts{
		{},
		{"s": "text", "n": 3.5, "neg0": math.Copysign(0, -1), "b": true, "null": nil},
		{"list": []any{"a", 1.0, []any{"nested", map[string]any{"k": "v"}}}, "empty": []any{}, "nilList": []any(nil), "nilMap": map[string]any(nil)},
		{"int": 3, "strings": []string{"a", "b"}, "typed": map[string]string{"k": "v"}},
		{"bad": "a\xffb", "deep": []any{map[string]any{"x\xfe": "y"}}},
		{"big": 1e300, "tiny": 5e-324},
		{"nan": math.NaN()},
	}
	for _, f := range cases {
		got, want := Normalize(f), roundTrip(f)
		if _, nan := f["nan"]; nan {
			// Not encodable: both keep the facts as they are.
			if len(got) != 1 {
				t.Errorf("Normalize(%v) = %v", f, got)
			}
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Normalize(%#v)\n = %#v\nwant %#v", f, got, want)
		}
	}
	f := Facts{"list": []any{"a"}, "map": map[string]any{"k": "v"}}
	got := Normalize(f)
	got["list"].([]any)[0] = "changed"
	got["map"].(map[string]any)["k"] = "changed"
	if f["list"].([]any)[0] != "a" || f["map"].(map[string]any)["k"] != "v" {
		t.Error("Normalize's copy shares its lists or maps with the facts")
	}
}
