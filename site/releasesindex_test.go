package site

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
)

// seriesReleases returns the site fixture as releases v1.0.0 … v1.0.4,
// v1.1.0, v1.1.1 and v2.0.0, oldest first, in which route-model's bytes
// change at v1.0.3, tool-list moves at v1.1.0, runtime-gate's facts alone
// change at v2.0.0, endpoint-url is gone at v1.1.1 and back at v2.0.0;
// nothing else ever changes.
func seriesReleases(t *testing.T) []Release {
	t.Helper()
	tags := []string{"v1.0.0", "v1.0.1", "v1.0.2", "v1.0.3", "v1.0.4", "v1.1.0", "v1.1.1", "v2.0.0"}
	data, err := readFixture(t, "findings.json").Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var rels []Release
	for i, tag := range tags {
		doc, err := findings.DecodeDocument(data, "copy")
		if err != nil {
			t.Fatal(err)
		}
		doc.Source.Ref = tag
		v := strings.TrimPrefix(tag, "v")
		doc.Source.Version = &v
		commit := fmt.Sprintf("%040d", i+1)
		doc.Source.Commit = &commit
		var keep []*findings.Record
		for _, r := range doc.Findings {
			switch {
			case r.ID == "route-model" && i < 3:
				excerpt, sum := "function route() {}\n", strings.Repeat("0", 64)
				r.Location.Excerpt, r.Location.SHA256 = excerpt, sum
			case r.ID == "tool-list" && i < 5:
				r.Location.Lines = findings.Lines{Start: r.Location.Lines.Start - 3, End: r.Location.Lines.End - 3}
			case r.ID == "runtime-gate" && i < 7:
				r.Facts["reasons"] = []any{"an older reason"}
			case r.ID == "endpoint-url" && i == 6:
				continue
			}
			keep = append(keep, r)
		}
		doc.Findings = keep
		rels = append(rels, Release{Tag: tag, Document: doc, License: testLicense})
	}
	return rels
}

// TestTimelineCollapse: a run of releases in which a record does not
// change is one segment; a segment begins only where something happened,
// with what happened as its mark.
func TestTimelineCollapse(t *testing.T) {
	var rels []*dirRelease
	for _, r := range seriesReleases(t) {
		rels = append(rels, &dirRelease{entry: ManifestRelease{Tag: r.Tag, Records: summarize(r.Document)}})
	}
	diffs := summaryDiffs(rels)
	type seg struct {
		from, to int
		mark     string
	}
	for id, want := range map[string][]seg{
		"prompt-files-plain": {{0, 7, ""}},
		"env-block":          {{0, 7, ""}}, // missing throughout, for the same reason
		"route-model":        {{0, 2, ""}, {3, 7, diff.Changed}},
		"tool-list":          {{0, 4, ""}, {5, 7, diff.Moved}},
		"runtime-gate":       {{0, 6, ""}, {7, 7, "facts"}},
		"endpoint-url":       {{0, 5, ""}, {6, 6, diff.Removed}, {7, 7, diff.Added}},
	} {
		var got []seg
		for _, s := range timeline(id, rels, diffs) {
			got = append(got, seg{s.From, s.To, s.Mark})
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: segments %v, want %v", id, got, want)
		}
	}
}

func TestMinorOf(t *testing.T) {
	for tag, want := range map[string]string{
		"v1.17.3": "v1.17", "v1.17.30-rc.1": "v1.17", "1.2.3": "1.2", "vscode-v0.0.1": "vscode-v0.0", "nightly": "nightly",
	} {
		if got := minorOf(tag); got != want {
			t.Errorf("minorOf(%q) = %q, want %q", tag, got, want)
		}
	}
}

var hrefPattern = regexp.MustCompile(`href="([^"]*)"`)

// TestReleasesPages: the index lists the minor versions newest first and
// the newest minor's releases newest first; each minor version has a
// page of its releases, newest first, linked to its neighbours; each
// finding a timeline, newest first; every release page links back to the
// index, its minor version and its neighbours; every link of a top-level
// page leads to a file of the directory.
func TestReleasesPages(t *testing.T) {
	rels := seriesReleases(t)
	files, err := renderReleases(rels, Options{})
	if err != nil {
		t.Fatal(err)
	}
	order := func(page string, hrefs ...string) {
		t.Helper()
		last := -1
		for _, h := range hrefs {
			at := strings.Index(string(files[page]), `href="`+h+`"`)
			if at < 0 || at < last {
				t.Errorf("%s: %s missing or out of order (want %v)", page, h, hrefs)
			}
			last = at
		}
	}
	order("index.html", "v2.0.html", "v1.1.html", "v1.0.html", "v2.0.0/index.html")
	if strings.Contains(string(files["index.html"]), `href="v1.0.3/index.html"`) {
		t.Error("the index lists releases of an older minor version")
	}
	// A minor version counts the findings that differ, release by
	// release; those missing alike in both releases do not.
	for _, want := range []string{
		`<a href="v1.0.html">v1.0</a>: 5 releases, v1.0.0 – v1.0.4 (2026-01-02); 1 change to findings`,
		`<a href="v1.1.html">v1.1</a>: 2 releases, v1.1.0 – v1.1.1 (2026-01-02); 2 changes to findings`,
		`<a href="v2.0.html">v2.0</a>: 1 release (2026-01-02); 2 changes to findings`,
	} {
		if !strings.Contains(string(files["index.html"]), want) {
			t.Errorf("the index lacks %q", want)
		}
	}
	order("v1.0.html", "v1.0.4/index.html", "v1.0.3/index.html", "v1.0.2/index.html", "v1.0.1/index.html", "v1.0.0/index.html")
	order("v1.1.html", "v2.0.html", "v1.0.html", "v1.1.1/index.html", "v1.1.0/index.html")
	for _, m := range []string{"v1.0.html", "v1.1.html", "v2.0.html"} {
		if !strings.Contains(string(files[m]), `href="index.html"`) {
			t.Errorf("%s does not link back to the index", m)
		}
	}

	tl := string(files["timeline/route-model.html"])
	order("timeline/route-model.html", "../v1.0.3/changes.html#route-model", "../v1.0.0/index.html")
	if n := strings.Count(tl, "<li>"); n != 2 {
		t.Errorf("route-model's timeline has %d lines, want 2", n)
	}
	for _, want := range []string{"(5 releases)", "(3 releases)", ">changed</a> at v1.0.3, then unchanged", "first release shown, then unchanged"} {
		if !strings.Contains(tl, want) {
			t.Errorf("route-model's timeline lacks %q", want)
		}
	}
	if !strings.Contains(string(files["timeline/runtime-gate.html"]), ">facts</a> at v2.0.0") {
		t.Error("runtime-gate's timeline does not mark its change of facts")
	}
	if !strings.Contains(string(files["index.html"]), `href="timeline/route-model.html"`) {
		t.Error("the index does not link route-model's timeline")
	}

	for i, r := range rels {
		for _, page := range []string{"index.html", "prompts.html", "changes.html"} {
			if i == 0 && page == "changes.html" {
				continue
			}
			body := string(files[r.Tag+"/"+page])
			want := []string{`href="../index.html"`, `href="../` + minorOf(r.Tag) + `.html"`}
			if i > 0 {
				want = append(want, `href="../`+rels[i-1].Tag+`/index.html"`)
			}
			if i+1 < len(rels) {
				want = append(want, `href="../`+rels[i+1].Tag+`/index.html"`)
			}
			for _, w := range want {
				if !strings.Contains(body, w) {
					t.Errorf("%s/%s lacks the link %s", r.Tag, page, w)
				}
			}
		}
	}

	for name, data := range files {
		if strings.Contains(name, "/") && !strings.HasPrefix(name, timelineDir+"/") || !strings.HasSuffix(name, ".html") {
			continue
		}
		dir := ""
		if strings.HasPrefix(name, timelineDir+"/") {
			dir = timelineDir + "/"
		}
		for _, m := range hrefPattern.FindAllStringSubmatch(string(data), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if strings.HasPrefix(target, "https://") || target == "" {
				continue
			}
			if path := cleanJoin(dir, target); files[path] == nil {
				t.Errorf("%s links %s, which is not in the directory", name, m[1])
			}
		}
	}
}

// cleanJoin resolves a relative link from dir ("" or "timeline/").
func cleanJoin(dir, target string) string {
	for strings.HasPrefix(target, "../") {
		target = strings.TrimPrefix(target, "../")
		dir = ""
	}
	return dir + target
}

var sameAsPattern = regexp.MustCompile(`The same lines, byte for byte, as at <a href="\.\./([^/"]+)/([a-z]+\.html)#([a-z0-9-]+)">`)

// TestReleasesSameAs: a release's pages show an excerpt only where its
// lines or bytes differ from the release before; otherwise they link to
// the earliest release of the run that cites the same lines with the same
// bytes, whose page shows the excerpt. The records in findings.json and
// findings.md stay whole.
func TestReleasesSameAs(t *testing.T) {
	rels := seriesReleases(t)
	files, err := renderReleases(rels, Options{})
	if err != nil {
		t.Fatal(err)
	}
	links := map[string]string{} // "tag page id" → the release linked
	for name, data := range files {
		tag, page, ok := strings.Cut(name, "/")
		if !ok || tag == timelineDir {
			continue
		}
		for _, m := range sameAsPattern.FindAllStringSubmatch(string(data), -1) {
			if m[2] != page && page != "index.html" {
				t.Errorf("%s links %s's excerpt on %s", name, m[3], m[2])
			}
			if page != "index.html" {
				links[tag+" "+page+" "+m[3]] = m[1]
			}
		}
		if strings.HasSuffix(name, "/findings.md") && strings.Contains(string(data), "byte for byte") {
			t.Errorf("%s links an excerpt instead of quoting it", name)
		}
	}
	for key, want := range map[string]string{
		"v1.0.0 prompts.html route-model":        "", // the oldest shows every excerpt
		"v1.0.2 prompts.html route-model":        "v1.0.0",
		"v1.0.3 prompts.html route-model":        "", // changed
		"v2.0.0 prompts.html route-model":        "v1.0.3",
		"v1.1.0 tools.html tool-list":            "", // moved: other line numbers
		"v1.1.1 tools.html tool-list":            "v1.1.0",
		"v2.0.0 network.html endpoint-url":       "",       // gone at v1.1.1
		"v2.0.0 configuration.html runtime-gate": "v1.0.0", // facts alone changed
	} {
		if got := links[key]; got != want {
			t.Errorf("%s: links the excerpt at %q, want %q", key, got, want)
		}
	}
	// Every link leads to a page that shows the excerpt.
	for key, target := range links {
		_, rest, _ := strings.Cut(key, " ")
		if other, ok := links[target+" "+rest]; ok {
			t.Errorf("%s links %s, which links %s in turn", key, target, other)
		}
	}
	if len(links) < 20 {
		t.Errorf("only %d excerpts linked", len(links))
	}
}
