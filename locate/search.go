package locate

import (
	"fmt"
	"slices"

	"github.com/keyfindings/keyfindings/source"
)

// SearchConsiders reports whether the tree search for definition id would
// consider a .ts/.tsx file with these bytes: whether they hold every
// anchor of one of the definition's shapes' queries, the shapes named in
// skipped (see SearchSkipped) left out. blob is the file's git blob id; the
// answer is remembered by it, so read is called at most once per blob over
// the Extractor's life (and not at all for a blob a search already
// filtered). A caller that compares two commits (keyfindings log) uses it
// to tell whether a change to a source file can change what the search
// finds.
func (x *Extractor) SearchConsiders(id, blob string, skipped []string, read func() ([]byte, error)) (bool, error) {
	cd, err := x.def(id)
	if err != nil {
		return false, err
	}
	var data []byte
	for _, s := range cd.shapes {
		if slices.Contains(skipped, s.def.ShapeName) {
			continue
		}
		ok, known := x.anchors.holds(blob, s.anchorIDs)
		if !known {
			if data == nil {
				var err error
				if data, err = read(); err != nil {
					return false, err
				}
			}
			ok = x.anchors.record(blob, data, s.anchorIDs)
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

// SearchSkipped lists the shapes of definition id, by name in the
// definition's order, whose search_from commit comes before in history
// h: there the tree search skips them (for all of a definition's shapes
// whose files are absent, as at a commit before a shape's code existed).
// Two commits whose lists and files at the definition's paths are the
// same, and whose source files that the search considers (SearchConsiders
// with this list) are the same, have the same records.
func (x *Extractor) SearchSkipped(id string, h source.History, commit string) ([]string, error) {
	cd, err := x.def(id)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range cd.shapes {
		if s.def.SearchFrom == "" {
			continue
		}
		p, err := x.placeAt(commitOf{h: h, commit: commit}, s.def.SearchFrom, nil)
		if err != nil {
			return nil, err
		}
		if p == Before {
			out = append(out, s.def.ShapeName)
		}
	}
	return out, nil
}

// OutsideRange tells where commit stands to definition id's since/until
// range in history h: "" when inside it (or when ancestry does not tell),
// else the problem the definition's missing record carries there
// ("introduced in v1.16.0"). Outside its range a definition is looked for
// at its own paths only, without the tree search, so a caller that
// compares commits (keyfindings log) knows that two commits outside it
// alike, whose files at those paths are the same, have the same records.
func (x *Extractor) OutsideRange(id string, h source.History, commit string) (string, error) {
	cd, err := x.def(id)
	if err != nil {
		return "", err
	}
	o, err := x.rangeAt(commitOf{h: h, commit: commit}, cd.def, nil)
	if err != nil || o == nil {
		return "", err
	}
	return o.reason, nil
}

// commitOf is a commit of a history as rangeAt reads a snapshot: its id
// and its history, nothing else (the embedded Snapshot is nil).
type commitOf struct {
	source.Snapshot
	h      source.History
	commit string
}

func (c commitOf) Commit() string          { return c.commit }
func (c commitOf) History() source.History { return c.h }

// def returns the compiled definition id.
func (x *Extractor) def(id string) (*compiledDef, error) {
	for _, d := range x.defs {
		if d.def.ID == id {
			return d, nil
		}
	}
	return nil, fmt.Errorf("no definition %s in this Extractor", id)
}

// Parses counts the files the Extractor parsed so far, over all its
// Extract calls: each blob is parsed once for every definition of a call
// that reads it (keyfindings log counts them, for tests and benchmarks).
func (x *Extractor) Parses() int64 { return x.parses.parses.Load() }
