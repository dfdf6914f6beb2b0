package releases

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/mod/semver"
)

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct {
		in         string
		ok         bool
		pre, build string
	}{
		{"v1.2.3", true, "", ""},
		{"1.2.3", true, "", ""},
		{"v0.10.0", true, "", ""},
		{"v1.2.0-beta.1", true, "-beta.1", ""},
		{"v1.2.0+build.7", true, "", "build.7"},
		{"v1.2.0-rc-1+x", true, "-rc-1", "x"},
		// Numbers of any length compare as numbers (semver sets no bound).
		{"v99999999999999999999.0.0", true, "", ""},
		{"v1.2", false, "", ""},
		{"v1", false, "", ""},
		{"v1.2+x", false, "", ""},
		{"v1.2.3.4", false, "", ""},
		{"v01.2.3", false, "", ""},
		{"v1.2.3-01", false, "", ""},
		{"v1.2.3-", false, "", ""},
		{"v1.2.3-a..b", false, "", ""},
		{"v1.2.3+", false, "", ""},
		{"v1.2.x", false, "", ""},
		{"v-1.2.3", false, "", ""},
		{"", false, "", ""},
	} {
		got, ok := ParseVersion(tc.in)
		if ok != tc.ok || ok && (got.Build() != tc.build || semver.Prerelease(string(got)) != tc.pre || got.IsRelease() != (tc.pre == "")) {
			t.Errorf("ParseVersion(%q) = %q, %v; want ok %v, pre %q, build %q", tc.in, got, ok, tc.ok, tc.pre, tc.build)
		}
	}
}

func TestVersionOrder(t *testing.T) {
	// The precedence example of semver.org §11, then numeric fields
	// compared as numbers, not text.
	ordered := []string{
		"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta",
		"1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0",
		"1.0.1", "1.9.0", "1.10.0", "1.10.2", "2.0.0", "10.0.0",
	}
	for i := range ordered {
		for j := range ordered {
			a, _ := ParseVersion(ordered[i])
			b, _ := ParseVersion(ordered[j])
			if got, want := a.Compare(b), cmpInt(i, j); got != want {
				t.Errorf("%s vs %s: Compare = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
	a, _ := ParseVersion("1.0.0+a")
	b, _ := ParseVersion("1.0.0+b")
	if a.Compare(b) != 0 {
		t.Error("build metadata must not order versions")
	}
}

// TestCompareReleaseTags: tag names order as SelectReleases orders them,
// by version then name, and names without a version last.
func TestCompareReleaseTags(t *testing.T) {
	ordered := []string{"v0.0.1", "vscode-v0.0.1", "v0.9.0", "v0.10.0", "v1.0.0-beta.1", "v1.0.0", "v1.0.0+build", "latest", "nightly"}
	for i := range ordered {
		for j := range ordered {
			if got, want := CompareReleaseTags(ordered[i], ordered[j]), cmpInt(i, j); got != want {
				t.Errorf("%s vs %s: CompareReleaseTags = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

func cmpInt(i, j int) int {
	switch {
	case i < j:
		return -1
	case i > j:
		return 1
	}
	return 0
}

func TestSelectReleases(t *testing.T) {
	tags := []string{
		"v0.9.0", "v0.10.0", "v1.0.0-beta.1", "v1.0.0", "v1.1.0", "v1.10.0", "v1.9.0",
		"v1.2.3+meta", "vscode-v0.0.1", "vscode-v0.0.2", "nightly", "0.0.45", "v2", "v1.02.0",
	}
	names := func(rs []ReleaseTag) string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Name)
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		name string
		sel  Selection
		want string
		err  string
	}{
		{"default: strict releases in semver order", Selection{}, "v0.9.0 v0.10.0 v1.0.0 v1.1.0 v1.9.0 v1.10.0", ""},
		{"from and to inclusive", Selection{From: "v0.10.0", To: "v1.9.0"}, "v0.10.0 v1.0.0 v1.1.0 v1.9.0", ""},
		{"a pre-release bound still bounds", Selection{From: "v1.0.0-beta.1", To: "v1.0.0"}, "v1.0.0", ""},
		{"given match admits pre-releases and metadata", Selection{Match: "v1.*", MatchGiven: true, To: "v1.2.3+meta"}, "v1.0.0-beta.1 v1.0.0 v1.1.0 v1.2.3+meta", ""},
		{"given match admits prefixed names", Selection{Match: "vscode-*", MatchGiven: true}, "vscode-v0.0.1 vscode-v0.0.2", ""},
		{"bare versions", Selection{Match: "[0-9]*", MatchGiven: true}, "0.0.45", ""},
		{"from is not a tag", Selection{From: "v3.0.0"}, "", "--from v3.0.0: no such tag"},
		{"to has no version", Selection{To: "nightly"}, "", "--to nightly: the tag carries no semantic version"},
		{"from after to", Selection{From: "v1.1.0", To: "v1.0.0"}, "", "later version than --to"},
		{"empty range", Selection{From: "v1.0.0-beta.1", To: "v1.0.0-beta.1"}, "", "no release tags (vMAJOR.MINOR.PATCH) in the range"},
		{"no match", Selection{Match: "release-*", MatchGiven: true}, "", `no tags matching "release-*"`},
		{"bad glob", Selection{Match: "v[", MatchGiven: true}, "", "not a valid glob"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SelectReleases(tags, tc.sel)
			if tc.err != "" {
				// The command names the fields by its flags.
				flags := map[Field]string{FieldMatch: "--match", FieldFrom: "--from", FieldTo: "--to"}
				var se *SelectionError
				text := fmt.Sprint(err)
				if errors.As(err, &se) {
					text = se.Text(flags)
					if strings.Contains(err.Error(), "--") {
						t.Errorf("the error's own text %q names a flag", err)
					}
				}
				if err == nil || !strings.Contains(text, tc.err) {
					t.Fatalf("err = %v (%s), want one containing %q", err, text, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if names(got) != tc.want {
				t.Errorf("got %s\nwant %s", names(got), tc.want)
			}
		})
	}
}
