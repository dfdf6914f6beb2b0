package locate

import "fmt"

// SearchConsiders reports whether the tree search for definition id would
// consider a .ts/.tsx file with these bytes: whether they hold every
// anchor of one of the definition's shapes' queries. blob is the file's git blob id; the
// answer is remembered by it, so read is called at most once per blob over
// the Extractor's life (and not at all for a blob a search already
// filtered). A caller that compares two commits (keyfindings log) uses it
// to tell whether a change to a source file can change what the search
// finds.
func (x *Extractor) SearchConsiders(id, blob string, read func() ([]byte, error)) (bool, error) {
	var cd *compiledDef
	for _, d := range x.defs {
		if d.def.ID == id {
			cd = d
			break
		}
	}
	if cd == nil {
		return false, fmt.Errorf("no definition %s in this Extractor", id)
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
