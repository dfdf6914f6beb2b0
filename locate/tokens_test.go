package locate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/keyfindings/keyfindings/internal/gittest"
	"github.com/keyfindings/keyfindings/source"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/tokens"
)

// TestModelTextTokens builds the catalog fixture with plain.txt holding a
// text whose counts tiktoken gave (tokens/testdata/prose.txt: 79 in
// o200k_base, 82 in cl100k_base). The records of the model_text
// definition carry counts over their excerpt; every other record carries
// null. Records reused from the disk cache by a second process carry the
// same counts, and a cache entry written without the flag is not reused
// with it (nor the reverse).
func TestModelTextTokens(t *testing.T) {
	prose, err := os.ReadFile(filepath.Join("..", "tokens", "testdata", "prose.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r := gittest.New(t)
	r.CopyTree(catalogTree)
	r.Write("packages/opencode/src/session/prompt/plain.txt", prose)
	commit, err := source.ResolveCommit(r.Repo, r.Commit("fixture"))
	if err != nil {
		t.Fatal(err)
	}
	snap, err := source.NewGitSnapshot(r.Repo, commit)
	if err != nil {
		t.Fatal(err)
	}
	const plainID = "system-prompt-files-prompt-plain-txt"
	dir := t.TempDir()
	extract := func(what string, modelText bool) (*findings.Document, Stats) {
		t.Helper()
		cat, err := findings.Embedded()
		if err != nil {
			t.Fatal(err)
		}
		cat.Find("system-prompt-files").ModelText = modelText
		x, err := CompileWith(cat, CompileOptions{CacheDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		res, err := x.Extract(snap, Meta{Repo: "https://github.com/example/opencode", Ref: "fixture"})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return res.Document, x.Stats()
	}
	// The other model_text definitions (tool descriptions, agent prompts,
	// templates, reminders) keep the flag throughout; the test turns it
	// off and on for system-prompt-files only.
	embedded, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	alwaysModelText := map[string]bool{}
	for _, d := range embedded.Definitions {
		if d.ModelText && d.ID != "system-prompt-files" {
			alwaysModelText[d.ID] = true
		}
	}
	check := func(what string, doc *findings.Document, modelText bool) {
		t.Helper()
		counted := 0
		for _, rec := range doc.Findings {
			wantCounts := (modelText && rec.Definition == "system-prompt-files" || alwaysModelText[rec.Definition]) && rec.Located()
			switch {
			case !wantCounts && rec.Location.Tokens != nil:
				t.Errorf("%s: %s carries tokens %+v, want null", what, rec.ID, *rec.Location.Tokens)
			case wantCounts && rec.Location.Tokens == nil:
				t.Errorf("%s: %s carries no tokens", what, rec.ID)
			case wantCounts:
				counted++
				want, err := tokens.Count(rec.Location.Excerpt)
				if err != nil {
					t.Fatal(err)
				}
				if rec.ID == plainID {
					want = findings.Tokens{O200kBase: 79, Cl100kBase: 82}
				}
				if *rec.Location.Tokens != want {
					t.Errorf("%s: %s carries tokens %+v, want %+v (over its excerpt)", what, rec.ID, *rec.Location.Tokens, want)
				}
			}
		}
		if modelText && (counted < 2 || doc.Find(plainID) == nil) {
			t.Errorf("%s: %d records with tokens, want every prompt file including %s", what, counted, plainID)
		}
	}

	doc, st := extract("first run", true)
	check("first run", doc, true)
	if st.Located == 0 {
		t.Fatalf("first run located nothing afresh: %+v", st)
	}
	doc, st = extract("second run, warm disk cache", true)
	check("second run, warm disk cache", doc, true)
	if st.Located != 0 {
		t.Errorf("second run: %+v, want every record from the cache", st)
	}
	doc, st = extract("without model_text", false)
	check("without model_text", doc, false)
	if st.Located != 1 {
		t.Errorf("without model_text: %+v, want the changed definition located afresh, the rest reused", st)
	}
	doc, _ = extract("model_text again", true)
	check("model_text again", doc, true)
}
