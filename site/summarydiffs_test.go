package site

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
)

// wholeSummaryDiffs is summaryDiffs as it was before records were
// compared one by one: each release's whole stub document compared with
// the one before.
func wholeSummaryDiffs(rels []*dirRelease) []*summaryDiff {
	diffs := make([]*summaryDiff, len(rels))
	for i := 1; i < len(rels); i++ {
		a, b := rels[i-1].entry, rels[i].entry
		diffs[i] = newSummaryDiff(diff.Compare(stubDocument(a.Tag, a.Records), stubDocument(b.Tag, b.Records)))
	}
	return diffs
}

// TestSummaryDiffsOneByOne: comparing records one by one (and
// remembering those that did not change) gives what comparing whole
// documents gives, over random series of releases whose records change
// status, bytes, place, facts and problem, and whose ids are reordered,
// added, dropped and repeated.
func TestSummaryDiffsOneByOne(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	statuses := []string{string(findings.StatusLocated), string(findings.StatusMissing), string(findings.StatusAbsent), string(findings.StatusAmbiguous)}
	pick := func(opts ...string) string { return opts[rng.Intn(len(opts))] }
	summary := func(id string) RecordSummary {
		s := RecordSummary{ID: id, Page: "tools", Title: "T " + id, Status: pick(statuses...)}
		if s.Status == string(findings.StatusLocated) {
			s.Path, s.Lines, s.SHA256 = pick("a.ts", "b.ts"), pick("1-5", "2-6"), pick("aa", "bb")
			s.Facts = pick("", "f1", "f2")
		} else {
			s.Problem = pick("no match", "introduced in v1.2.0")
		}
		s.SameAs = pick("", "v1.0.0")
		return s
	}
	for series := 0; series < 200; series++ {
		ids := []string{"a", "b", "c", "d", "e"}
		var recs []RecordSummary
		for _, id := range ids {
			recs = append(recs, summary(id))
		}
		var rels []*dirRelease
		for i := 0; i < 12; i++ {
			next := append([]RecordSummary(nil), recs...)
			switch rng.Intn(10) {
			case 0: // swap two records
				j, k := rng.Intn(len(next)), rng.Intn(len(next))
				next[j], next[k] = next[k], next[j]
			case 1: // a new id
				next = append(next, summary(fmt.Sprintf("n%d", i)))
			case 2: // an id dropped
				if len(next) > 1 {
					next = next[1:]
				}
			case 3: // an id listed twice
				next = append(next, summary(next[0].ID))
			default: // some records change
				for k := range next {
					if rng.Intn(4) == 0 {
						next[k] = summary(next[k].ID)
					}
				}
			}
			recs = next
			rels = append(rels, &dirRelease{entry: ManifestRelease{Tag: fmt.Sprintf("v1.%d.0", i), Records: recs}})
		}
		got, want := summaryDiffs(rels), wholeSummaryDiffs(rels)
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("series %d, release %d: one by one %+v, whole %+v", series, i, got[i], want[i])
			}
		}
	}
}
