package site

import (
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

// TestCandidateURL links an ambiguous finding's candidates as permalinks
// are made: path escaped (a # in a file name is not a fragment) and in the
// host's layout.
func TestCandidateURL(t *testing.T) {
	commit := strings.Repeat("ab", 20)
	for web, want := range map[string]string{
		"https://github.com/o/r": "https://github.com/o/r/blob/" + commit + "/src/a%23b.ts#L3-L4",
		"https://gitlab.com/o/r": "https://gitlab.com/o/r/-/blob/" + commit + "/src/a%23b.ts#L3-4",
	} {
		doc := &findings.Document{
			Schema: findings.Schema,
			Source: findings.Source{Repo: web, Ref: "v1", Commit: &commit},
			Findings: []*findings.Record{{
				ID: "amb", Definition: "amb", Page: "tools", Section: "S", Title: "T", Claim: "c", When: "w",
				Status: findings.StatusAmbiguous, Problem: strp("2 matches"),
				Candidates: []findings.Candidate{{Path: "src/a#b.ts", Lines: findings.Lines{Start: 3, End: 4}}},
				Facts:      findings.Facts{}, Warnings: []string{},
			}},
		}
		files, err := RenderWith(doc, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if md := string(files["findings.md"]); !strings.Contains(md, "[view]("+want+")") {
			t.Errorf("%s: findings.md has no link to %s:\n%s", web, want, md)
		}
	}
}

func strp(s string) *string { return &s }
