package site

import (
	htmltemplate "html/template"
	"slices"
	"strings"
	"testing"
)

func TestUnionIDs(t *testing.T) {
	// Oldest first: b is gone from the newest and follows a, its
	// predecessor where it last was; e only ever existed in the oldest.
	lists := [][]string{{"e", "a", "b", "c"}, {"a", "b", "c"}, {"a", "c", "d"}}
	if got, want := unionIDs(lists), []string{"e", "a", "b", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("unionIDs = %v, want %v", got, want)
	}
}

func TestRenderReleasesRefuses(t *testing.T) {
	doc := readFixture(t, "findings.json")
	for _, tc := range []struct {
		name string
		rels []Release
		err  string
	}{
		{"nothing", nil, "no releases"},
		{"a tag that climbs out", []Release{{Tag: "../v1.0.0", Document: doc}}, "cannot name a directory"},
		{"a tag with markup", []Release{{Tag: `v1.0.0"><script>`, Document: doc}}, "cannot name a directory"},
		{"a tag that is a top-level file", []Release{{Tag: "index.html", Document: doc}}, "cannot name a directory"},
		{"a tag that is a minor version's page", []Release{{Tag: "v1.2.html", Document: doc}}, "cannot name a directory"},
		{"a tag that is the timelines' folder", []Release{{Tag: "timeline", Document: doc}}, "cannot name a directory"},
		{"a tag twice", []Release{{Tag: "v1.0.0", Document: doc}, {Tag: "v1.0.0", Document: doc}}, "listed twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := renderReleases(tc.rels, Options{}); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("err = %v, want %q", err, tc.err)
			}
		})
	}
}

func TestFigureOnlyWhereGiven(t *testing.T) {
	set, err := loadTemplates(nil)
	if err != nil {
		t.Fatal(err)
	}
	md := newMarkdown(nil, set.html, map[string]htmltemplate.HTML{"known": "<svg></svg>"})
	out, err := md.convert([]byte("```kf-figure=known\n```\n"))
	if err != nil || string(out) != "<svg></svg>" {
		t.Errorf("known figure: %q, %v", out, err)
	}
	if _, err := md.convert([]byte("```kf-figure=other\n```\n")); err == nil {
		t.Error("an unknown figure rendered")
	}
	// Data reaches Markdown escaped or fenced, so it cannot open a figure
	// block: a fence inside an excerpt is longer than any inside.
	text := fence("ts", "```kf-figure=known\n```\n")
	out, err = md.convert([]byte(text + "\n"))
	if err != nil || strings.Contains(string(out), "<svg>") {
		t.Errorf("a fenced excerpt opened a figure: %q, %v", out, err)
	}
}

// TestCountWording: counts of one take the singular.
func TestCountWording(t *testing.T) {
	for n, want := range map[int]string{0: "0 releases", 1: "1 release", 2: "2 releases", 27: "27 releases"} {
		if got := Count(n, "release"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
