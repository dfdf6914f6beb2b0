package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// CodeChanged is the Flag.Review text for a record whose facts are those
// its claim was reviewed against but whose cited bytes are none of the
// versions the claim was checked with (findings.CodeDiffers). Unlike the
// other flags it asks for a re-read, not for changed facts.
const CodeChanged = "code differs from every version the claim was checked against; facts unchanged"

// Flag is one record whose facts need a person's review.
type Flag struct {
	// ID is the record id.
	ID string
	// Definition is the id of the definition it comes from.
	Definition string
	// Review says why: ReviewNeeded, ReviewMissing, Gone or CodeChanged.
	Review string
	// Changes lists the facts that differ, by name, in name order.
	Changes []diff.FactChange
	// Checked is, for CodeChanged, the code version the claim was checked
	// against last (findings.CodeDiffers).
	Checked *findings.CheckedCode
}

// FactsDiffer reports whether the flag is about facts (every kind but
// CodeChanged): what `keyfindings review` fails on.
func (f Flag) FactsDiffer() bool { return f.Review != CodeChanged }

// Reviews compares the records of doc with the facts each definition in
// cat was reviewed against, and returns the records that need review, in
// record order (ids that are gone follow their definition's records).
// Definitions with no located record are left out: locating them is the
// problem there, not their facts. For a definition with shapes, records
// are compared with the reviewed facts of their own shape (ReviewKey),
// and only the shapes located in doc can have ids that are gone. A record
// whose facts match but whose code is none of the versions checked gets
// a CodeChanged flag.
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
				flags = append(flags, Flag{ID: r.ID, Definition: defID, Review: verdict, Changes: diff.FactChanges(d.Reviewed[key].Facts, r.Facts)})
			} else if c := findings.CodeDiffers(d, key, r.Location.SHA256); c != nil {
				flags = append(flags, Flag{ID: r.ID, Definition: defID, Review: CodeChanged, Checked: c})
			}
		}
		for _, key := range sortedIDs(d.Reviewed) {
			if !seen[key] && shapes[findings.ReviewShape(key)] {
				_, id, ok := strings.Cut(key, "/")
				if !ok {
					id = key
				}
				flags = append(flags, Flag{ID: id, Definition: defID, Review: Gone, Changes: diff.FactChanges(d.Reviewed[key].Facts, nil)})
			}
		}
	}
	return flags
}

func sortedIDs(m map[string]findings.Reviewed) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Replaced is a reviewed entry an accept would give other facts, or drop
// (no such record where it is accepted), although its claim was checked
// against code at commits (Checked) that may be newer than the one
// accepted: accepting an older commit's facts there would flag the newer
// ones. The caller decides, by ancestry, whether to go on.
type Replaced struct {
	Definition string
	Key        string
	Checked    []findings.CheckedCode
	// Dropped is set when the entry would be dropped, not replaced.
	Dropped bool
}

// Accepted returns, for every definition of cat that located at least one
// record in doc, the reviewed section those records call for: each
// located record's key (ReviewKey) mapped to its facts and to the code it
// was checked with, checked, the version read now. An entry whose facts
// do not change keeps its code versions and gains checked's, when new;
// one whose facts change keeps checked's alone (the other versions hold
// other facts), and is listed in the second result when it held versions
// read at a commit; so is such an entry that is dropped (no record of doc
// has its key). For a definition with shapes, the entries of its other
// shapes (those doc located nothing with) are kept: a build at one commit
// reviews one era. Definitions whose section would not change are
// left out, so accepting twice changes nothing.
func Accepted(cat *findings.Catalog, doc *findings.Document, at findings.CheckedCode) (map[*findings.Definition]map[string]findings.Reviewed, []Replaced) {
	out := map[*findings.Definition]map[string]findings.Reviewed{}
	var replaced []Replaced
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
			out[d] = map[string]findings.Reviewed{}
			located[d] = map[string]bool{}
		}
		key := findings.ReviewKey(r.Shape, r.ID)
		checked := at
		checked.SHA256 = r.Location.SHA256
		entry := findings.Reviewed{Facts: findings.Normalize(r.Facts), Code: []findings.CheckedCode{checked}}
		if old, ok := d.Reviewed[key]; ok {
			if findings.EqualFacts(old.Facts, r.Facts) {
				entry.Code = old.Code
				if !old.Checked(checked.SHA256) {
					entry.Code = append(slices.Clone(old.Code), checked)
				}
			} else if readAtCommits(old.Code) {
				replaced = append(replaced, Replaced{Definition: d.ID, Key: key, Checked: old.Code})
			}
		}
		out[d][key] = entry
		located[d][r.Shape] = true
	}
	for d, reviewed := range out {
		for key, entry := range d.Reviewed {
			if shape := findings.ReviewShape(key); d.HasShape(shape) && !located[d][shape] {
				reviewed[key] = entry
			} else if _, ok := reviewed[key]; !ok && readAtCommits(entry.Code) {
				replaced = append(replaced, Replaced{Definition: d.ID, Key: key, Checked: entry.Code, Dropped: true})
			}
		}
		if sameReviewed(d.Reviewed, reviewed) {
			delete(out, d)
		}
	}
	sort.Slice(replaced, func(i, j int) bool {
		if replaced[i].Definition != replaced[j].Definition {
			return replaced[i].Definition < replaced[j].Definition
		}
		return replaced[i].Key < replaced[j].Key
	})
	return out, replaced
}

func readAtCommits(code []findings.CheckedCode) bool {
	for _, c := range code {
		if c.Commit != "" {
			return true
		}
	}
	return false
}

func sameReviewed(a, b map[string]findings.Reviewed) bool {
	if len(a) != len(b) {
		return false
	}
	for id, ea := range a {
		eb, ok := b[id]
		if !ok || !ea.Equal(eb) {
			return false
		}
	}
	return true
}

// AcceptReviews rewrites the reviewed section of each definition file in
// dir as accepted (Accepted's first result) says, and returns the files
// it wrote, sorted. Only the reviewed section changes; every other byte
// of a file stays as it is.
func AcceptReviews(dir string, accepted map[*findings.Definition]map[string]findings.Reviewed) ([]string, error) {
	var written []string
	for d, reviewed := range accepted {
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
const reviewedHeader = "# Facts, and the cited code (_code), the claim was checked against.\n# `keyfindings review --accept` rewrites this section (and only this\n# section) after the claim is re-read.\n"

// RewriteReviewed returns definition bytes with the top-level reviewed
// section replaced by one holding reviewed. The section must be the
// file's last top-level key; it runs from its key line to the end of the
// file. A file without one gets it appended. Everything before the section
// is kept byte for byte.
func RewriteReviewed(data []byte, reviewed map[string]findings.Reviewed) ([]byte, error) {
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
		Reviewed map[string]findings.Reviewed `yaml:"reviewed"`
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
// names sorted, lists in their order, two-space indentation, each entry's
// checked code (findings.CodeKey) after its facts.
func marshalReviewed(reviewed map[string]findings.Reviewed) ([]byte, error) {
	// A JSON round trip turns every value into plain maps, lists, strings,
	// float64 and bool, which yaml renders with sorted keys.
	plainEntries := make(map[string]any, len(reviewed))
	for key, e := range reviewed {
		m, err := e.MarshalYAML() // the facts and, under CodeKey, the code
		if err != nil {
			return nil, err
		}
		plainEntries[key] = m
	}
	raw, err := json.Marshal(map[string]any{"reviewed": plainEntries})
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
		// Sorted, but the checked code after the facts it was read with.
		sort.Slice(keys, func(i, j int) bool {
			if (keys[i] == findings.CodeKey) != (keys[j] == findings.CodeKey) {
				return keys[j] == findings.CodeKey
			}
			return keys[i] < keys[j]
		})
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
