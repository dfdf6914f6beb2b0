package site

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/recordtest"
)

// TestExcerptsLexedAhead checks that the excerpts highlighted ahead, on
// several goroutines, are what highlighting each when it is shown gives,
// for every located record, and that an excerpt the pages do not show
// (an earlier release's pages do) is not highlighted.
func TestExcerptsLexedAhead(t *testing.T) {
	recs := map[string]*findings.Record{}
	for i := range 20 {
		id := fmt.Sprintf("r%02d", i)
		path := "packages/opencode/src/a.ts"
		if i%3 == 0 {
			path = "packages/opencode/src/prompt/p.txt"
		}
		excerpt := strings.Repeat(fmt.Sprintf("export const v%d = \"<b>%d</b>\" // `x`\n", i, i), i+1)
		recs[id] = recordtest.Located(id, path, i+1, excerpt, nil)
	}
	recs["gone"] = recordtest.NotLocated("gone", findings.StatusMissing, "not here")
	lexed, err := lexExcerpts(recs, map[string]string{"r05": "v1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := lexed["r05"]; ok {
		t.Error("r05, shown by an earlier release's pages, was highlighted")
	}
	if _, ok := lexed["gone"]; ok {
		t.Error("a record without an excerpt was highlighted")
	}
	for id, rec := range recs {
		if rec.Location == nil || id == "r05" {
			continue
		}
		for _, head := range []bool{false, true} {
			ahead, err := recordExcerpt(rec, head, lexed[id])
			if err != nil {
				t.Fatal(err)
			}
			shown, err := recordExcerpt(rec, head, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ahead, shown) || len(lexed[id]) == 0 {
				t.Errorf("%s: highlighted ahead %+v, when shown %+v", id, ahead, shown)
			}
		}
	}
}
