package findings

import (
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Reviewed is what a definition's claim was checked against for one
// record: the facts, and the versions of the cited code a person read the
// claim with (SPEC §5). In a definition file it is one mapping: the facts
// by name, and the code under the reserved key "_code" (fact names never
// start with an underscore: IsReserved).
type Reviewed struct {
	Facts Facts
	// Code lists the cited bytes the claim was checked against, in the
	// order they were accepted (not history's: an older commit whose
	// facts match can be accepted after a newer one), each with the facts
	// above. Empty in entries written before the code was recorded: then
	// only the facts are compared.
	Code []CheckedCode
}

// CheckedCode is one version of a record's cited bytes that its claim
// was checked against.
type CheckedCode struct {
	// SHA256 is the span's SHA-256, as the record's sha256.
	SHA256 string `yaml:"sha256" json:"sha256"`
	// At names where it was read: the release tag, else the short commit
	// id, as pages label a build.
	At string `yaml:"at" json:"at"`
	// Commit is the full commit id; "" when read from a plain directory.
	Commit string `yaml:"commit,omitempty" json:"commit,omitempty"`
}

// CodeKey is the key of a reviewed entry that holds its Code.
const CodeKey = "_code"

var commitHex = regexp.MustCompile(`^[0-9a-f]{40}$`)

// UnmarshalYAML reads a reviewed entry: fact names to values, and
// optionally the checked code under CodeKey.
func (r *Reviewed) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: a reviewed entry must map fact names to values", n.Line)
	}
	facts := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	*r = Reviewed{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case k.Value == CodeKey:
			if err := knownCodeFields(v); err != nil {
				return err
			}
			if err := v.Decode(&r.Code); err != nil {
				return fmt.Errorf("line %d: %s: %w", k.Line, CodeKey, err)
			}
			for _, c := range r.Code {
				if err := c.check(); err != nil {
					return fmt.Errorf("line %d: %s: %w", k.Line, CodeKey, err)
				}
			}
		case strings.HasPrefix(k.Value, "_"):
			return fmt.Errorf("line %d: %q: keys with a leading underscore are reserved (only %s is known)", k.Line, k.Value, CodeKey)
		default:
			facts.Content = append(facts.Content, k, v)
		}
	}
	return facts.Decode(&r.Facts)
}

// knownCodeFields rejects a field of a checked version that CheckedCode
// lacks, as the rest of a definition is read (a misspelt "commit" would
// otherwise drop the commit silently).
func knownCodeFields(v *yaml.Node) error {
	if v.Kind != yaml.SequenceNode {
		return nil // Decode says what is wrong
	}
	for _, item := range v.Content {
		if item.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(item.Content); j += 2 {
			switch k := item.Content[j]; k.Value {
			case "sha256", "at", "commit":
			default:
				return fmt.Errorf("line %d: %s: field %s not found (want sha256, at and commit)", k.Line, CodeKey, k.Value)
			}
		}
	}
	return nil
}

func (c CheckedCode) check() error {
	switch {
	case !sha256Pattern.MatchString(c.SHA256):
		return fmt.Errorf("sha256 %q is not 64 lowercase hex digits", c.SHA256)
	case c.At == "":
		return fmt.Errorf("sha256 %s: at: names no commit", c.SHA256)
	case c.Commit != "" && !commitHex.MatchString(c.Commit):
		return fmt.Errorf("commit %q is not 40 lowercase hex digits", c.Commit)
	}
	return nil
}

// MarshalYAML writes the entry as UnmarshalYAML reads it.
func (r Reviewed) MarshalYAML() (any, error) {
	m := make(map[string]any, len(r.Facts)+1)
	for k, v := range r.Facts {
		m[k] = v
	}
	if len(r.Code) > 0 {
		m[CodeKey] = r.Code
	}
	return m, nil
}

// Checked reports whether sha256 is one of the versions in Code.
func (r Reviewed) Checked(sha256 string) bool {
	for _, c := range r.Code {
		if c.SHA256 == sha256 {
			return true
		}
	}
	return false
}

// Equal reports whether two entries hold the same facts and the same
// code versions in the same order.
func (r Reviewed) Equal(o Reviewed) bool {
	if !EqualFacts(r.Facts, o.Facts) || len(r.Code) != len(o.Code) {
		return false
	}
	for i := range r.Code {
		if r.Code[i] != o.Code[i] {
			return false
		}
	}
	return true
}

// CodeDiffers is, for the record under key (ReviewKey) whose facts pass
// ReviewOf, the code version its claim was checked against last (the
// last accepted, see Reviewed.Code) when the record's bytes (sha256) are
// none of the versions checked; nil when they are one, or when the entry
// records no code.
func CodeDiffers(d *Definition, key, sha256 string) *CheckedCode {
	r, ok := d.Reviewed[key]
	if !ok || len(r.Code) == 0 || r.Checked(sha256) {
		return nil
	}
	c := r.Code[len(r.Code)-1]
	return &c
}
