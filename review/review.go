package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/mdtext"
	"go.yaml.in/yaml/v3"
)

// Gone is the Flag.Review text for a reviewed record id that the
// build no longer produces although its definition located others.
const Gone = "reviewed, but no such record at this commit"

// Flag is one record whose facts need a person's review.
type Flag struct {
	// ID is the record id.
	ID string
	// Definition is the id of the definition it comes from.
	Definition string
	// Review says why: ReviewNeeded, ReviewMissing or Gone.
	Review string
	// Changes lists the facts that differ, by name, in name order.
	Changes []diff.FactChange
}

// Reviews compares the records of doc with the facts each definition in
// cat was reviewed against, and returns the records that need review, in
// record order (ids that are gone follow their definition's records).
// Definitions with no located record are left out: locating them is the
// problem there, not their facts. For a definition with shapes, records
// are compared with the reviewed facts of their own shape (ReviewKey),
// and only the shapes located in doc can have ids that are gone.
func Reviews(cat *findings.Catalog, doc *findings.Document) []Flag {
	var flags []Flag
	byDef := map[string][]*findings.Record{}
	var order []string
	for _, r := range doc.Findings {
		if !r.Located() {
			continue
		}
		if _, ok := byDef[r.Definition]; !ok {
			order = append(order, r.Definition)
		}
		byDef[r.Definition] = append(byDef[r.Definition], r)
	}
	for _, defID := range order {
		d := cat.Find(defID)
		if d == nil {
			continue
		}
		seen := map[string]bool{}
		shapes := map[string]bool{}
		for _, r := range byDef[defID] {
			key := findings.ReviewKey(r.Shape, r.ID)
			seen[key] = true
			shapes[r.Shape] = true
			if verdict := findings.ReviewOf(d, key, r.Facts); verdict != "" {
				flags = append(flags, Flag{ID: r.ID, Definition: defID, Review: verdict, Changes: diff.FactChanges(d.Reviewed[key], r.Facts)})
			}
		}
		for _, key := range sortedIDs(d.Reviewed) {
			if !seen[key] && shapes[findings.ReviewShape(key)] {
				_, id, ok := strings.Cut(key, "/")
				if !ok {
					id = key
				}
				flags = append(flags, Flag{ID: id, Definition: defID, Review: Gone, Changes: diff.FactChanges(d.Reviewed[key], nil)})
			}
		}
	}
	return flags
}

func sortedIDs(m map[string]findings.Facts) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Accepted returns, for every definition of cat that located at least one
// record in doc, the reviewed section those records call for: each located
// record's key (ReviewKey) mapped to its facts. For a definition with
// shapes, the entries of its other shapes (those doc located nothing
// with) are kept: a build at one commit reviews one era. Definitions whose
// section would not change are left out, so accepting twice changes
// nothing.
func Accepted(cat *findings.Catalog, doc *findings.Document) map[*findings.Definition]map[string]findings.Facts {
	out := map[*findings.Definition]map[string]findings.Facts{}
	located := map[*findings.Definition]map[string]bool{}
	for _, r := range doc.Findings {
		if !r.Located() {
			continue
		}
		d := cat.Find(r.Definition)
		if d == nil {
			continue
		}
		if out[d] == nil {
			out[d] = map[string]findings.Facts{}
			located[d] = map[string]bool{}
		}
		out[d][findings.ReviewKey(r.Shape, r.ID)] = findings.Normalize(r.Facts)
		located[d][r.Shape] = true
	}
	for d, reviewed := range out {
		for key, facts := range d.Reviewed {
			if shape := findings.ReviewShape(key); d.HasShape(shape) && !located[d][shape] {
				reviewed[key] = facts
			}
		}
		if sameReviewed(d.Reviewed, reviewed) {
			delete(out, d)
		}
	}
	return out
}

func sameReviewed(a, b map[string]findings.Facts) bool {
	if len(a) != len(b) {
		return false
	}
	for id, fa := range a {
		fb, ok := b[id]
		if !ok || !findings.EqualFacts(fa, fb) {
			return false
		}
	}
	return true
}

// AcceptReviews rewrites the reviewed section of each definition file in
// dir that Accepted returns, and returns the files it wrote, sorted. Only
// the reviewed section changes; every other byte of a file stays as it is.
func AcceptReviews(dir string, cat *findings.Catalog, doc *findings.Document) ([]string, error) {
	var written []string
	for d, reviewed := range Accepted(cat, doc) {
		file := filepath.Join(dir, filepath.Base(d.Source))
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("accept %s: %w", d.ID, err)
		}
		out, err := RewriteReviewed(data, reviewed)
		if err != nil {
			return nil, &findings.DefinitionError{File: file, Err: err}
		}
		if err := writeFileAtomic(file, out); err != nil {
			return nil, fmt.Errorf("accept %s: %w", d.ID, err)
		}
		written = append(written, file)
	}
	sort.Strings(written)
	return written, nil
}

// writeFileAtomic replaces file by a temporary file renamed over it, so an
// interrupted write leaves the old definition.
func writeFileAtomic(file string, data []byte) error {
	info, err := os.Stat(file)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), info.Mode().Perm()); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// reviewedHeader is the comment written above a reviewed section.
const reviewedHeader = "# Facts the claim was written against. `keyfindings review --accept`\n# rewrites this section (and only this section) after the claim is re-read.\n"

// RewriteReviewed returns definition bytes with the top-level reviewed
// section replaced by one holding reviewed. The section must be the
// file's last top-level key; it runs from its key line to the end of the
// file. A file without one gets it appended. Everything before the section
// is kept byte for byte.
func RewriteReviewed(data []byte, reviewed map[string]findings.Facts) ([]byte, error) {
	start, err := reviewedStart(data)
	if err != nil {
		return nil, err
	}
	head := data[:start]
	if start == len(data) {
		if len(head) > 0 && head[len(head)-1] != '\n' {
			head = append(append([]byte{}, head...), '\n')
		}
		head = append(append([]byte{}, head...), reviewedHeader...)
	}
	section, err := marshalReviewed(reviewed)
	if err != nil {
		return nil, err
	}
	out := append(append([]byte{}, head...), section...)
	// The result must still be a definition with exactly these facts.
	var check struct {
		Reviewed map[string]findings.Facts `yaml:"reviewed"`
	}
	if err := yaml.Unmarshal(out, &check); err != nil {
		return nil, fmt.Errorf("rewritten reviewed section does not parse: %s", mdtext.OneLine(err.Error()))
	}
	if !sameReviewed(check.Reviewed, reviewed) {
		return nil, errors.New("rewritten reviewed section does not read back as the accepted facts")
	}
	return out, nil
}

// reviewedStart returns the offset of the line that opens the top-level
// reviewed key, or len(data) when there is none. A top-level key after it
// is an error: rewriting to the end of the file would drop it.
func reviewedStart(data []byte) (int, error) {
	start := -1
	off := 0
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		top := len(line) > 0 && line[0] != ' ' && line[0] != '\t' && line[0] != '#' && line[0] != '\n' && line[0] != '\r' && line[0] != '-'
		if top {
			switch {
			case bytes.HasPrefix(line, []byte("reviewed:")):
				if start >= 0 {
					return 0, errors.New("two top-level reviewed: keys")
				}
				start = off
			case start >= 0:
				key := strings.TrimSpace(strings.SplitN(string(line), ":", 2)[0])
				return 0, fmt.Errorf("reviewed: must be the last top-level key (found %q after it); move it to the end of the file", key)
			}
		}
		off += len(line)
	}
	if start < 0 {
		return len(data), nil
	}
	return start, nil
}

// marshalReviewed renders the section deterministically: ids and fact
// names sorted, lists in their order, two-space indentation.
func marshalReviewed(reviewed map[string]findings.Facts) ([]byte, error) {
	// A JSON round trip turns every value into plain maps, lists, strings,
	// float64 and bool, which yaml renders with sorted keys.
	raw, err := json.Marshal(map[string]any{"reviewed": reviewed})
	if err != nil {
		return nil, err
	}
	var plain any
	if err := json.Unmarshal(raw, &plain); err != nil {
		return nil, err
	}
	node, err := toNode(plain)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(node); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// toNode builds the yaml node for a plain value with map keys sorted. A
// string with a line break is written double-quoted, so leading and
// trailing newlines stay visible as \n instead of as block-scalar
// indentation tricks.
func toNode(v any) (*yaml.Node, error) {
	switch v := v.(type) {
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			val, err := toNode(v[k])
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, val)
		}
		return n, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		if len(v) == 0 {
			n.Style = yaml.FlowStyle
		}
		for _, item := range v {
			val, err := toNode(item)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, val)
		}
		return n, nil
	}
	n := &yaml.Node{}
	if err := n.Encode(v); err != nil {
		return nil, err
	}
	if s, ok := v.(string); ok && strings.ContainsAny(s, "\n\r") {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n, nil
}
