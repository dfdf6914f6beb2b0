package locate

import (
	"fmt"

	"github.com/keyfindings/keyfindings/source"
)

// SearchConsiders reports whether the tree search for definition id would
// consider a .ts/.tsx file with these bytes: whether they hold every
// anchor of one of the definition's shapes' queries. blob is the file's git blob id; the
// answer is remembered by it, so read is called at most once per blob over
// the Extractor's life (and not at all for a blob a search already
// filtered). A caller that compares two commits (keyfindings log) uses it
// to tell whether a change to a source file can change what the search
// finds.
func (x *Extractor) SearchConsiders(id, blob string, read func() ([]byte, error)) (bool, error) {
	cd, err := x.def(id)
	if err != nil {
		return false, err
	}
	var data []byte
	for _, s := range cd.shapes {
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
