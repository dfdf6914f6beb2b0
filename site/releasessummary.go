package site

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"strconv"
	"strings"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
)

// A releases directory's index pages and timelines are rendered from
// small summaries of each release's records, kept in the manifest, so
// that they never need every release's findings.json at once: memory is
// bounded by one release's records (and the summaries), not by the
// number of releases.

// RecordSummary is what the releases index keeps of one record: enough to
// compare it with the record of the release before as diff.Compare
// does (bytes, place, facts, status, problem) and to link it.
type RecordSummary struct {
	ID     string `json:"id"`
	Page   string `json:"page"`
	Title  string `json:"title"`
	Status string `json:"status"`
	Path   string `json:"path,omitempty"`
	// Lines are the cited lines, "start-end"; "" when not located.
	Lines  string `json:"lines,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	// Facts is the SHA-256 of the facts as diff compares them (normalised,
	// compact JSON), its first 16 hex digits (it only tells changes
	// apart); "" without facts.
	Facts   string `json:"facts,omitempty"`
	Problem string `json:"problem,omitempty"`
	// SameAs names the earliest release of the run of releases before this
	// one whose record cites the same lines with the same bytes: the
	// release whose pages show the excerpt, which this one's link to.
	SameAs string `json:"same_as,omitempty"`
}

// summarize returns the summaries of doc's records, in its order.
func summarize(doc *findings.Document) []RecordSummary {
	out := make([]RecordSummary, 0, len(doc.Findings))
	for _, r := range doc.Findings {
		s := RecordSummary{ID: r.ID, Page: r.Page, Title: r.Title, Status: string(r.Status), Problem: deref(r.Problem)}
		if loc := r.Location; loc != nil {
			s.Path, s.SHA256 = loc.Path, loc.SHA256
			s.Lines = fmt.Sprintf("%d-%d", loc.Lines.Start, loc.Lines.End)
		}
		if len(r.Facts) > 0 {
			data, err := json.Marshal(findings.Normalize(r.Facts))
			if err == nil {
				s.Facts = sha256Hex(data)[:16]
			}
		}
		out = append(out, s)
	}
	return out
}

// stubDocument turns summaries back into a document that diff.Compare
// judges as it judges the full records: the facts are stood for by their
// hash, the lines by their text, and there is no excerpt (so a change of
// bytes has no hunks).
func stubDocument(tag string, recs []RecordSummary) *findings.Document {
	d := &findings.Document{Schema: findings.Schema, Source: findings.Source{Ref: tag}}
	for _, s := range recs {
		r := &findings.Record{ID: s.ID, Page: s.Page, Title: s.Title, Status: findings.Status(s.Status)}
		if l := s.lines(); s.Path != "" && l != nil {
			r.Location = &findings.Location{Path: s.Path, SHA256: s.SHA256, Lines: *l}
		}
		if s.Problem != "" {
			r.Problem = ptr(s.Problem)
		}
		if s.Facts != "" {
			r.Facts = findings.Facts{"sha256": s.Facts}
		}
		d.Findings = append(d.Findings, r)
	}
	return d
}

func ptr(s string) *string { return &s }

// linkSameAs sets, on each located record of recs that cites the same
// path, lines and bytes as the record of the release before (prev; nil
// for none), the release that first showed them, and returns those
// releases by record id.
func linkSameAs(prev *dirRelease, recs []RecordSummary) map[string]string {
	m := map[string]string{}
	for k := range recs {
		s := &recs[k]
		s.SameAs = ""
		if prev == nil || s.Status != string(findings.StatusLocated) || s.SHA256 == "" {
			continue
		}
		p := recordOf(prev.entry.Records, s.ID)
		if p == nil || p.Status != string(findings.StatusLocated) || p.SHA256 != s.SHA256 || p.Path != s.Path || p.Lines != s.Lines {
			continue
		}
		s.SameAs = p.SameAs
		if s.SameAs == "" {
			s.SameAs = prev.entry.Tag
		}
		m[s.ID] = s.SameAs
	}
	return m
}

// shareSummaries replaces each summary of recs that is the same as the
// release prev's (nil for none) by prev's, so that the directory holds
// the strings of a record that does not change once, not once a release.
func shareSummaries(prev *dirRelease, recs []RecordSummary) {
	if prev == nil {
		return
	}
	for k := range recs {
		if p := recordOf(prev.entry.Records, recs[k].ID); p != nil && *p == recs[k] {
			recs[k] = *p
		}
	}
}

// sameAsLink is what a page of a releases directory shows instead of an
// excerpt that an earlier release's pages show already (Options.sameAs):
// a link to it there. "" where the excerpt is to be shown.
func (r *renderer) sameAsLink(rec *findings.Record, html bool) string {
	tag := r.sameAs[rec.ID]
	if !html || tag == "" {
		return ""
	}
	return "*The same lines, byte for byte, as at [" + mdText(tag) + "](" + linkURL("../"+tag+"/"+rec.Page+".html#"+rec.ID) + "), whose page shows them.*"
}

// lines returns the cited lines; nil when there are none.
func (s RecordSummary) lines() *findings.Lines {
	a, b, ok := strings.Cut(s.Lines, "-")
	start, err1 := strconv.Atoi(a)
	end, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return nil
	}
	return &findings.Lines{Start: start, End: end}
}

// linesText writes "lines a–b" (or "line a").
func linesText(l findings.Lines) string {
	if l.Start == l.End {
		return fmt.Sprintf("line %d", l.Start)
	}
	return fmt.Sprintf("lines %d–%d", l.Start, l.End)
}

// timelineIDPattern is what a finding id must look like to name its
// timeline page (as the definitions' ids do).
var timelineIDPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// summaryDiff is what the top-level pages use of the diff of a
// release's summaries with the release before: its counts by status and,
// for each finding whose record differs, what happened. Only that is
// kept, not the diff itself: the pages of a thousand releases would
// otherwise hold every release's diff, and the records it points to, at
// once.
type summaryDiff struct {
	counts map[string]int
	// differs counts the findings whose record differs.
	differs int
	byID    map[string]summaryChange
}

// summaryChange is what happened to a finding's record (see segment).
type summaryChange struct {
	Mark, Note string
}

// summaryDiffs compares each release's summaries with the release
// before (nil for the oldest), as diff.Compare compares records.
//
// Most records of two neighbouring releases have the same summary, and
// with a thousand releases comparing whole documents was most of what
// rendering the top-level pages cost. So when two releases list the
// same ids in the same order, each once, the records are compared one
// by one: a record whose summary is the same on both sides has the
// status it has when compared with itself (remembered by summary), and
// only the others are compared. diff.Compare matches records by id and
// judges each pair on its own, so the outcome is the same.
func summaryDiffs(rels []*dirRelease) []*summaryDiff {
	diffs := make([]*summaryDiff, len(rels))
	self := map[RecordSummary]*summaryDiff{}
	for i := 1; i < len(rels); i++ {
		a, b := rels[i-1].entry, rels[i].entry
		if !sameIDs(a.Records, b.Records) {
			diffs[i] = newSummaryDiff(diff.Compare(stubDocument(a.Tag, a.Records), stubDocument(b.Tag, b.Records)))
			continue
		}
		d := &summaryDiff{counts: map[string]int{}, byID: map[string]summaryChange{}}
		for k := range b.Records {
			o, n := a.Records[k], b.Records[k]
			o.SameAs, n.SameAs = "", ""
			one, ok := self[n]
			if o != n || !ok {
				one = newSummaryDiff(diff.Compare(stubDocument(a.Tag, []RecordSummary{o}), stubDocument(b.Tag, []RecordSummary{n})))
				if o == n {
					self[n] = one
				}
			}
			for status, c := range one.counts {
				d.counts[status] += c
			}
			d.differs += one.differs
			maps.Copy(d.byID, one.byID)
		}
		diffs[i] = d
	}
	return diffs
}

// sameIDs reports whether a and b list the same ids in the same order,
// each once.
func sameIDs(a, b []RecordSummary) bool {
	if len(a) != len(b) {
		return false
	}
	seen := make(map[string]bool, len(a))
	for k := range a {
		if a[k].ID != b[k].ID || seen[a[k].ID] {
			return false
		}
		seen[a[k].ID] = true
	}
	return true
}

// newSummaryDiff keeps what the pages use of dd.
func newSummaryDiff(dd *diff.Diff) *summaryDiff {
	d := &summaryDiff{counts: dd.Counts(), byID: map[string]summaryChange{}}
	seen := map[string]bool{}
	for _, f := range dd.Findings {
		differs := f.Differs()
		if differs {
			d.differs++
		}
		if seen[f.ID] || !differs {
			seen[f.ID] = true
			continue
		}
		seen[f.ID] = true
		mark := f.Status
		if mark == diff.Changed && f.Old != nil && f.New != nil && f.Old.Location != nil && f.New.Location != nil && f.Old.Location.SHA256 == f.New.Location.SHA256 {
			mark = "facts"
		}
		d.byID[f.ID] = summaryChange{Mark: mark, Note: f.Note}
	}
	return d
}

// segment is a run of consecutive releases in which a finding's record
// did not change: it begins with a release where something happened
// (or the oldest release) and ends before the next such release.
type segment struct {
	// From and To are the indexes of its oldest and newest release.
	From, To int
	// Mark is what happened at From: a diff status, "facts" for a change
	// of facts alone, or "" for the oldest release.
	Mark string
	// Rec is the record at From; nil where the release has no record of
	// the finding.
	Rec *RecordSummary
	// Note explains Mark, from the diff.
	Note string
}

// timeline collapses the records of id across rels into segments, oldest
// first. diffs are summaryDiffs(rels).
func timeline(id string, rels []*dirRelease, diffs []*summaryDiff) []segment {
	var segs []segment
	for i, r := range rels {
		rec := recordOf(r.entry.Records, id)
		if i == 0 {
			segs = append(segs, segment{From: 0, To: 0, Rec: rec})
			continue
		}
		c, ok := diffs[i].byID[id]
		if !ok {
			segs[len(segs)-1].To = i
			continue
		}
		segs = append(segs, segment{From: i, To: i, Mark: c.Mark, Rec: rec, Note: c.Note})
	}
	return segs
}

func recordOf(recs []RecordSummary, id string) *RecordSummary {
	for i := range recs {
		if recs[i].ID == id {
			return &recs[i]
		}
	}
	return nil
}
