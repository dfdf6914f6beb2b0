package site

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
)

// The picture of findings × releases on the releases index: a row per
// finding, a column per release (oldest on the left), a cell per finding
// per release. This file lays it out; releases-matrix.html.tmpl draws it
// with html/template, which escapes every label, title and link.

// Cell statuses beyond the diff statuses.
const (
	// cellLocated is a finding located in the oldest release shown,
	// which has nothing to be compared with.
	cellLocated = "located"
	// cellAbsent is a release without a record of that id (and without
	// one in the release before).
	cellAbsent = "none"
)

// matrixLegend lists the cell statuses in the legend's order, with their
// labels. Each is drawn with its own colour and its own shape, so the
// picture reads in greyscale and for colour-blind readers too.
var matrixLegend = []struct{ Status, Label string }{
	{diff.Unchanged, "unchanged"},
	{diff.Moved, "moved (same bytes)"},
	{diff.Changed, "changed (bytes or facts)"},
	{diff.Added, "added"},
	{diff.Found, "found (newly located)"},
	{diff.Introduced, "introduced (was absent)"},
	{diff.Removed, "removed"},
	{diff.Lost, "lost (no longer located)"},
	{diff.Retired, "retired (now absent)"},
	{diff.Absent, "absent (not in this release)"},
	{diff.Missing, "missing (not located)"},
	{cellLocated, "located (first release)"},
	{cellAbsent, "no such finding yet"},
}

// Geometry, in SVG user units (CSS pixels).
const (
	cellSize = 14
	pitch    = 20
	// charWidth approximates the advance of one character of the 12px
	// monospace labels.
	charWidth = 7
	pad       = 8
	// maxLabel truncates long row labels (the full id is in the title).
	maxLabel    = 40
	legendWidth = 200
)

// matrixView is the data of releases-matrix.html.tmpl.
type matrixView struct {
	Width, Height int
	// Title names the picture (the SVG's accessible name).
	Title   string
	Columns []matrixColumn
	Rows    []matrixRow
	Legend  []legendItem
	// LabelX is where the row labels end (they are right-aligned).
	LabelX int
	// GridX, GridY, GridW, GridH frame the cells.
	GridX, GridY, GridW, GridH int
}

// matrixColumn is one release; X, Y anchor its rotated label.
type matrixColumn struct {
	Tag, Href string
	X, Y      int
}

// matrixRow is one finding.
type matrixRow struct {
	ID, Label, Href string
	// Y is the top of the row; TextY the label's baseline.
	Y, TextY int
	// Stripe shades every other row, with a band from BandY, BandH high
	// and BandW wide.
	Stripe              bool
	BandY, BandH, BandW int
	Cells               []matrixCell
}

// matrixCell is one finding at one release; X, Y is its top-left corner.
type matrixCell struct {
	Status string
	// Href links to the finding at that release ("" for an absent cell).
	Href  string
	Title string
	X, Y  int
}

// legendItem is one status in the legend; X, Y place its sample cell.
type legendItem struct {
	Status, Label string
	X, Y          int
	TextX, TextY  int
}

// buildMatrix lays out the picture for releases oldest first, their
// documents and the diff of each with the one before (diffs[0] is nil).
func buildMatrix(tags []string, docs []*findings.Document, diffs []*diff.Diff) *matrixView {
	n := len(tags)
	ids := unionIDs(docs)
	byID := make([]map[string]*findings.Record, n)
	for i, d := range docs {
		byID[i] = map[string]*findings.Record{}
		for _, r := range d.Findings {
			if byID[i][r.ID] == nil {
				byID[i][r.ID] = r
			}
		}
	}
	diffByID := make([]map[string]*diff.FindingDiff, n)
	for i := 1; i < n; i++ {
		diffByID[i] = map[string]*diff.FindingDiff{}
		for _, f := range diffs[i].Findings {
			diffByID[i][f.ID] = f
		}
	}

	labelChars, tagChars := 8, 4
	for _, id := range ids {
		labelChars = max(labelChars, min(maxLabel, utf8.RuneCountInString(id)))
	}
	for _, t := range tags {
		tagChars = max(tagChars, utf8.RuneCountInString(t))
	}
	// Column labels are rotated 45°: their height and their overhang to
	// the right are both about 0.7 of their length.
	slant := tagChars*charWidth*7/10 + pad
	v := &matrixView{LabelX: labelChars*charWidth + pad, GridY: slant + pad}
	v.GridX = v.LabelX + pad
	v.GridW, v.GridH = n*pitch, len(ids)*pitch
	v.Title = fmt.Sprintf("Findings × releases, %s to %s: %s in %s", tags[0], tags[n-1], Count(len(ids), "finding"), Count(n, "release"))
	if n == 1 {
		v.Title = fmt.Sprintf("Findings at %s: %s", tags[0], Count(len(ids), "finding"))
	}
	for i, t := range tags {
		v.Columns = append(v.Columns, matrixColumn{Tag: t, Href: t + "/index.html", X: v.GridX + i*pitch + cellSize/2, Y: v.GridY - 4})
	}
	for j, id := range ids {
		row := matrixRow{ID: id, Label: truncate(id, maxLabel), Y: v.GridY + j*pitch, Stripe: j%2 == 1, BandH: pitch, BandW: v.GridX + v.GridW + pad}
		row.BandY = row.Y - (pitch-cellSize)/2
		row.TextY = row.Y + cellSize - 2
		for i := n - 1; i >= 0; i-- {
			if r := byID[i][id]; r != nil {
				row.Href = tags[i] + "/" + r.Page + ".html#" + id
				break
			}
		}
		for i := range n {
			c := matrixCell{X: v.GridX + i*pitch, Y: row.Y}
			rec := byID[i][id]
			var fd *diff.FindingDiff
			if i > 0 {
				fd = diffByID[i][id]
			}
			switch {
			case i == 0 && rec == nil, i > 0 && fd == nil:
				c.Status = cellAbsent
			case i == 0 && rec.Located():
				c.Status = cellLocated
			case i == 0:
				c.Status = diff.Missing
			default:
				c.Status = fd.Status
			}
			switch {
			case c.Status == cellAbsent:
			case rec == nil: // removed: the list of removed findings says what it was
				c.Href = tags[i] + "/" + changesFile + "#" + diff.Removed
			default:
				c.Href = tags[i] + "/" + rec.Page + ".html#" + id
			}
			c.Title = cellTitle(id, tags, i, c.Status, rec)
			row.Cells = append(row.Cells, c)
		}
		v.Rows = append(v.Rows, row)
	}

	v.Width = max(v.GridX+v.GridW+slant, 3*legendWidth+2*pad)
	perRow := max(1, (v.Width-2*pad)/legendWidth)
	legendY := v.GridY + v.GridH + 2*pad
	for k, l := range matrixLegend {
		x, y := pad+(k%perRow)*legendWidth, legendY+(k/perRow)*pitch
		v.Legend = append(v.Legend, legendItem{Status: l.Status, Label: l.Label, X: x, Y: y, TextX: x + cellSize + 6, TextY: y + cellSize - 2})
	}
	v.Height = legendY + (len(matrixLegend)+perRow-1)/perRow*pitch + pad
	return v
}

// cellTitle is a cell's accessible title: the finding, the release and
// what happened there.
func cellTitle(id string, tags []string, i int, status string, rec *findings.Record) string {
	at := id + " at " + tags[i] + ": "
	since := ""
	if i > 0 {
		since = " since " + tags[i-1]
	}
	switch status {
	case cellAbsent:
		return id + ": no record at " + tags[i]
	case cellLocated:
		return at + "located (the first release shown)" + where(rec)
	case diff.Missing, diff.Lost:
		p := ""
		if rec != nil && rec.Problem != nil {
			p = ": " + *rec.Problem
		}
		if status == diff.Lost {
			return at + "lost" + since + p
		}
		return at + "missing" + p
	case diff.Removed:
		return at + "removed" + since
	case diff.Absent, diff.Retired:
		p := ""
		if rec != nil && rec.Problem != nil {
			p = ": " + *rec.Problem
		}
		return at + status + p
	}
	return at + status + since + where(rec)
}

// where is ", path lines a–b" for a located record.
func where(rec *findings.Record) string {
	if rec == nil || !rec.Located() {
		return ""
	}
	if rec.Location.Lines.Start == rec.Location.Lines.End {
		return fmt.Sprintf(", %s line %d", rec.Location.Path, rec.Location.Lines.Start)
	}
	return fmt.Sprintf(", %s lines %d–%d", rec.Location.Path, rec.Location.Lines.Start, rec.Location.Lines.End)
}

// unionIDs returns every record id of docs (oldest first), in the newest
// document's order; an id only in older ones follows the id before it
// there, as diff.Compare orders a diff.
func unionIDs(docs []*findings.Document) []string {
	var order []string
	placed := map[string]bool{}
	for i := len(docs) - 1; i >= 0; i-- {
		after := -1
		for _, r := range docs[i].Findings {
			if placed[r.ID] {
				after = indexOf(order, r.ID)
				continue
			}
			at := after + 1
			order = append(order, "")
			copy(order[at+1:], order[at:])
			order[at] = r.ID
			placed[r.ID] = true
			after = at
		}
	}
	return order
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// Count writes n and a noun with a regular plural: "1 release",
// "27 releases".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
