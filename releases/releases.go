package releases

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"golang.org/x/mod/semver"
)

// Version is a semantic version (semver.org 2.0.0) read from a tag name,
// held in the form golang.org/x/mod/semver reads: "v1.2.3-beta.1+7".
type Version string

// ParseVersion parses "vMAJOR.MINOR.PATCH[-PRE][+BUILD]" (the "v" is
// optional). All three numbers must be spelled out, without leading zeros.
func ParseVersion(s string) (Version, bool) {
	if !strings.HasPrefix(s, "v") {
		s = "v" + s
	}
	// semver also accepts the shorthands v1 and v1.2, which Canonical
	// spells out; a tag must spell all three numbers itself.
	if !semver.IsValid(s) || semver.Canonical(s) != strings.TrimSuffix(s, semver.Build(s)) {
		return "", false
	}
	return Version(s), true
}

// IsRelease reports whether v has no pre-release part.
func (v Version) IsRelease() bool { return semver.Prerelease(string(v)) == "" }

// Build is v's build metadata without its "+", "" when there is none.
func (v Version) Build() string { return strings.TrimPrefix(semver.Build(string(v)), "+") }

// Compare orders versions by semver precedence: -1, 0 or +1. Build
// metadata is ignored, so two versions differing only in it compare equal.
func (v Version) Compare(w Version) int { return semver.Compare(string(v), string(w)) }

// ReleaseTag is a tag chosen as a release, with its version.
type ReleaseTag struct {
	Name    string
	Version Version
}

// Selection says which tags SelectReleases picks.
type Selection struct {
	// Match is a path.Match glob on the tag name; "" means DefaultMatch.
	Match string
	// MatchGiven is set when the user gave Match. Without it only strict
	// vMAJOR.MINOR.PATCH tags count; with it every matching tag that
	// carries a version does, pre-releases and prefixed names
	// (vscode-v1.2.3) included.
	MatchGiven bool
	// From and To bound the versions, inclusive; each must name a tag.
	From, To string
}

// DefaultMatch is the glob releases are chosen by when none is given.
const DefaultMatch = "v*"

// tagVersion finds the version a tag name carries: the whole name, or
// the part after a prefix ending in '-', '_', '/' or '@' ("vscode-v1.2.3").
func tagVersion(name string) (Version, bool) {
	if v, ok := ParseVersion(name); ok {
		return v, true
	}
	for i := 0; i < len(name); i++ {
		if strings.IndexByte("-_/@", name[i]) < 0 {
			continue
		}
		if v, ok := ParseVersion(name[i+1:]); ok && (name[i+1] == 'v' || name[i+1] >= '0' && name[i+1] <= '9') {
			return v, true
		}
	}
	return "", false
}

// strictRelease reports whether name is exactly vMAJOR.MINOR.PATCH.
func strictRelease(name string) (Version, bool) {
	if !strings.HasPrefix(name, "v") {
		return "", false
	}
	v, ok := ParseVersion(name)
	if !ok || !v.IsRelease() || v.Build() != "" {
		return "", false
	}
	return v, true
}

// SelectReleases picks the release tags among tags and orders them oldest
// first by version (ties, which differ only in build metadata or prefix,
// by name). The error names what was wrong: a bad glob, a bound that is
// not a tag or has no version, bounds in the wrong order, or an empty
// selection.
func SelectReleases(tags []string, sel Selection) ([]ReleaseTag, error) {
	match := sel.Match
	if match == "" {
		match = DefaultMatch
	}
	if _, err := path.Match(match, ""); err != nil {
		return nil, selectionErrorf("%s %q is not a valid glob: %v", FieldMatch, match, err)
	}
	known := map[string]bool{}
	for _, t := range tags {
		known[t] = true
	}
	bound := func(field Field, name string) (*Version, error) {
		if name == "" {
			return nil, nil
		}
		if !known[name] {
			return nil, selectionErrorf("%s %s: no such tag in the repository (list them with `git tag`)", field, name)
		}
		v, ok := tagVersion(name)
		if !ok {
			return nil, selectionErrorf("%s %s: the tag carries no semantic version (want vMAJOR.MINOR.PATCH)", field, name)
		}
		return &v, nil
	}
	from, err := bound(FieldFrom, sel.From)
	if err != nil {
		return nil, err
	}
	to, err := bound(FieldTo, sel.To)
	if err != nil {
		return nil, err
	}
	if from != nil && to != nil && from.Compare(*to) > 0 {
		return nil, selectionErrorf("%s %s is a later version than %s %s", FieldFrom, sel.From, FieldTo, sel.To)
	}
	var out []ReleaseTag
	for _, t := range tags {
		if m, _ := path.Match(match, t); !m {
			continue
		}
		var v Version
		var ok bool
		if sel.MatchGiven {
			v, ok = tagVersion(t)
		} else {
			v, ok = strictRelease(t)
		}
		if !ok || from != nil && v.Compare(*from) < 0 || to != nil && v.Compare(*to) > 0 {
			continue
		}
		out = append(out, ReleaseTag{Name: t, Version: v})
	}
	slices.SortFunc(out, func(a, b ReleaseTag) int { return compareReleases(a, b) })
	out = slices.CompactFunc(out, func(a, b ReleaseTag) bool { return a.Name == b.Name })
	if len(out) == 0 {
		what := "release tags (vMAJOR.MINOR.PATCH)"
		if sel.MatchGiven {
			what = fmt.Sprintf("tags matching %q with a version", match)
		}
		if from != nil || to != nil {
			what += " in the range"
		}
		return nil, fmt.Errorf("no %s in this repository", what)
	}
	return out, nil
}

func compareReleases(a, b ReleaseTag) int {
	if c := a.Version.Compare(b.Version); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// CompareReleaseTags orders two tag names as SelectReleases orders
// releases: by the version each carries, then by name. A tag without a
// version sorts after every tag with one.
func CompareReleaseTags(a, b string) int {
	va, oka := tagVersion(a)
	vb, okb := tagVersion(b)
	switch {
	case oka && !okb:
		return -1
	case !oka && okb:
		return 1
	case !oka && !okb:
		return strings.Compare(a, b)
	}
	return compareReleases(ReleaseTag{a, va}, ReleaseTag{b, vb})
}

// Field is a part of a Selection, as an error names it.
type Field int

// Selection fields.
const (
	FieldMatch Field = iota
	FieldFrom
	FieldTo
)

// fieldNames name the fields in SelectionError's own text.
var fieldNames = map[Field]string{FieldMatch: "tag pattern", FieldFrom: "first tag", FieldTo: "last tag"}

// SelectionError is a Selection that cannot be applied: a bad pattern, a
// bound that is not a release tag, or bounds in the wrong order. Its
// text names the fields as names says (Text), so that a command can name
// them by its flags.
type SelectionError struct {
	format string
	args   []any
}

func (e *SelectionError) Error() string { return e.Text(fieldNames) }

// Text is the error's text with each Field named as names says.
func (e *SelectionError) Text(names map[Field]string) string {
	args := make([]any, len(e.args))
	for i, a := range e.args {
		if f, ok := a.(Field); ok {
			a = names[f]
		}
		args[i] = a
	}
	return fmt.Sprintf(e.format, args...)
}

// selectionErrorf is a SelectionError; Field arguments are named by Text.
func selectionErrorf(format string, args ...any) error {
	return &SelectionError{format: format, args: args}
}
