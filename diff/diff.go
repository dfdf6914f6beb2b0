package diff

import (
	"fmt"
	"reflect"

	"github.com/keyfindings/keyfindings/findings"
)

// Diff statuses, in the order summaries list them. Added and removed say
// whether a record with the id exists on each side; found and lost say
// whether a record on both sides was located on each.
const (
	// Unchanged: located on both sides, same bytes, place and facts.
	Unchanged = "unchanged"
	// Moved: the same bytes and facts at other lines or another path.
	Moved = "moved"
	// Changed: located on both sides, bytes or facts differ.
	Changed = "changed"
	// Added: no record with the id on the old side (a new definition,
	// or a new match of an expect: all one); located on the new side.
	Added = "added"
	// Found: newly located; the old side's record was missing or
	// ambiguous.
	Found = "found"
	// Removed: no record with the id on the new side.
	Removed = "removed"
	// Lost: located on the old side; the new side's record is missing
	// or ambiguous.
	Lost = "lost"
	// Missing: not located on the new side, nor on the old side (or
	// no record there).
	Missing = "missing"
	// Introduced: absent on the old side (the definition says the
	// concept did not exist yet), located on the new side.
	Introduced = "introduced"
	// Retired: located on the old side, absent on the new side (the
	// definition says the concept is gone).
	Retired = "retired"
	// Absent: absent on the new side and absent or without a record
	// on the old side: nothing to compare, and no difference.
	Absent = "absent"
)

// Statuses lists the diff statuses in summary order.
var Statuses = []string{Unchanged, Moved, Changed, Added, Found, Introduced, Removed, Lost, Retired, Missing, Absent}

// Context is the number of context lines around a change in an
// excerpt diff, as in `git diff`.
const Context = 3

// Diff compares the records of two documents, finding by finding.
type Diff struct {
	Old, New *findings.Document
	Findings []*FindingDiff
	// Routes are the representative models' route totals on both sides,
	// when the caller set them (package route computes them).
	Routes []*RouteChange
}

// FindingDiff is what happened to one finding id between two documents.
type FindingDiff struct {
	ID     string
	Title  string
	Status string
	// Old and New are the records, nil where the id is absent.
	Old, New *findings.Record
	// Hunks diff the excerpts (changed findings located on both sides).
	Hunks []Hunk
	// Facts lists the facts that differ, by name.
	Facts []FactChange
	// Note explains the status in one sentence where it needs one
	// (missing, added after missing, same bytes with other facts).
	Note string
	// Tokens is the change of the token counts of a record whose excerpt
	// the model reads; nil for other records and where the bytes are the
	// same.
	Tokens *TokenChange
}

// FactChange is one fact whose value differs. Old or New is nil when the
// fact is absent on that side. When both are lists, Items diffs them
// element by element (each element as compact JSON, prefixed ' ', '-'
// or '+').
type FactChange struct {
	Name  string
	Old   any
	New   any
	Items []string
}

// Changed reports whether anything differs between the two sides (as git
// diff --exit-code, which is quiet when nothing differs).
func (d *Diff) Changed() bool {
	for _, f := range d.Findings {
		if f.Differs() {
			return true
		}
	}
	return false
}

// Differs reports whether the finding differs between the two sides:
// any status but unchanged, except missing on both sides in the same way
// for the same reason.
func (f *FindingDiff) Differs() bool {
	switch {
	case f.Status == Unchanged, f.Status == Absent:
		return false
	case f.Status == Missing && f.Old != nil && f.New != nil && sameProblem(f.Old, f.New):
		return false
	}
	return true
}

// Counts returns how many findings have each status.
func (d *Diff) Counts() map[string]int {
	n := map[string]int{}
	for _, f := range d.Findings {
		n[f.Status]++
	}
	return n
}

// Compare diffs two documents. Findings are matched by id and listed in
// catalog order: the new document's order, with ids only in the old one
// placed after the id that precedes them there.
//
// The status of an id present on both sides:
//   - located in both, same sha256, path and lines, same facts: unchanged
//   - located in both, same sha256 and facts, other lines or path: moved
//   - located in both, sha256 or facts differ: changed (facts are derived
//     partly outside the span, e.g. an import, so equal bytes can still
//     carry other facts; Note says so)
//   - located in old only: lost, with a Note giving the new problem
//   - located in new only: found, with a Note giving the old problem
//   - located in neither: missing, with the problems
//
// An id only in the new document is added, or missing when it is not
// located there; an id only in the old one is removed.
func Compare(old, new *findings.Document) *Diff {
	d := &Diff{Old: old, New: new}
	oldBy := make(map[string]*findings.Record, len(old.Findings))
	for _, r := range old.Findings {
		if _, dup := oldBy[r.ID]; !dup {
			oldBy[r.ID] = r
		}
	}
	newBy := make(map[string]*findings.Record, len(new.Findings))
	for _, r := range new.Findings {
		if _, dup := newBy[r.ID]; !dup {
			newBy[r.ID] = r
		}
	}
	order := mergeOrder(old.Findings, new.Findings)
	if len(order) > 0 {
		d.Findings = make([]*FindingDiff, 0, len(order))
	}
	for _, id := range order {
		fd := compareRecords(id, oldBy[id], newBy[id])
		fd.Tokens = tokenChange(fd)
		d.Findings = append(d.Findings, fd)
	}
	return d
}

// mergeOrder returns the union of ids: those of b in order, each id only in
// a inserted after the nearest preceding id of a already placed.
func mergeOrder(a, b []*findings.Record) []string {
	order := make([]string, 0, len(b))
	pos := make(map[string]int, len(b))
	for _, r := range b {
		if _, ok := pos[r.ID]; ok {
			continue
		}
		pos[r.ID] = len(order)
		order = append(order, r.ID)
	}
	inB := make(map[string]bool, len(pos))
	for id := range pos {
		inB[id] = true
	}
	// after is the id in order that the next a-only id follows ("" means
	// the start).
	after := ""
	for _, r := range a {
		if inB[r.ID] {
			after = r.ID
			continue
		}
		if _, ok := pos[r.ID]; ok {
			continue
		}
		at := 0
		if after != "" {
			at = pos[after] + 1
		}
		order = append(order, "")
		copy(order[at+1:], order[at:])
		order[at] = r.ID
		for i := at; i < len(order); i++ {
			pos[order[i]] = i
		}
		after = r.ID
	}
	return order
}

// sameProblem reports whether two records are not located in the same
// way for the same reason.
func sameProblem(o, n *findings.Record) bool {
	return o.Status == n.Status && o.ProblemText() == n.ProblemText()
}

func compareRecords(id string, o, n *findings.Record) *FindingDiff {
	fd := &FindingDiff{ID: id, Old: o, New: n}
	switch {
	case n != nil:
		fd.Title = n.Title
	case o != nil:
		fd.Title = o.Title
	}
	switch {
	case n != nil && n.Absent() && (o == nil || o.Absent()):
		fd.Status = Absent
		fd.Note = "absent: " + n.ProblemText()
		return fd
	case o == nil:
		fd.Status = Added
		if !n.Located() {
			fd.Status = Missing
			fd.Note = fmt.Sprintf("a new finding, not located: %s: %s", n.Status, n.ProblemText())
		}
		return fd
	case n == nil:
		fd.Status = Removed
		return fd
	}
	ol, nl := o.Located(), n.Located()
	switch {
	case o.Absent() && nl:
		fd.Status = Introduced
		fd.Note = "introduced; in the old source it was absent: " + o.ProblemText()
		return fd
	case ol && n.Absent():
		fd.Status = Retired
		fd.Note = "retired; located in the old source, absent in the new one: " + n.ProblemText()
		return fd
	case ol && !nl:
		fd.Status = Lost
		fd.Note = fmt.Sprintf("located in the old source; %s in the new one: %s", n.Status, n.ProblemText())
		return fd
	case !ol && !nl:
		fd.Status = Missing
		if sameProblem(o, n) {
			fd.Note = fmt.Sprintf("not located in either source: %s: %s", n.Status, n.ProblemText())
		} else {
			fd.Note = fmt.Sprintf("not located in either source: old %s: %s; new %s: %s", o.Status, o.ProblemText(), n.Status, n.ProblemText())
		}
		return fd
	case !ol && nl:
		fd.Status = Found
		fd.Note = fmt.Sprintf("newly located; in the old source it was %s: %s", o.Status, o.ProblemText())
		return fd
	}
	fd.Facts = FactChanges(o.Facts, n.Facts)
	sameBytes := o.Location.SHA256 == n.Location.SHA256
	samePlace := o.Location.Path == n.Location.Path && o.Location.Lines == n.Location.Lines
	switch {
	case sameBytes && len(fd.Facts) == 0 && samePlace:
		fd.Status = Unchanged
	case sameBytes && len(fd.Facts) == 0:
		fd.Status = Moved
	default:
		fd.Status = Changed
		if sameBytes {
			fd.Note = "the cited lines are byte-identical; facts taken from outside them changed"
		} else {
			fd.Hunks = UnifiedHunks(o.Location.Excerpt, n.Location.Excerpt, o.Location.Lines.Start, n.Location.Lines.Start, Context)
		}
	}
	return fd
}

// FactChanges lists the facts whose values differ, by name.
func FactChanges(a, b findings.Facts) []FactChange {
	if len(a) > 0 && reflect.DeepEqual(a, b) {
		// Equal facts normalise alike: nothing to copy (most records
		// of two neighbouring releases have the same facts).
		return nil
	}
	na, nb := findings.Normalize(a), findings.Normalize(b)
	var out []FactChange
	for _, name := range findings.FactNames(na, nb) {
		ov, ook := na[name]
		nv, nok := nb[name]
		if ook && nok && reflect.DeepEqual(ov, nv) {
			continue
		}
		fc := FactChange{Name: name, Old: ov, New: nv}
		ol, lok := ov.([]any)
		nl, rok := nv.([]any)
		if lok && rok {
			fc.Items = itemDiff(ol, nl)
		}
		out = append(out, fc)
	}
	return out
}
