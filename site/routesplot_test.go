package site

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

// routeReleases returns three releases of the routes fixture: the edit
// tool's description grows at v1.1.0, and at v1.2.0 the routing record
// is lost, so no route can be evaluated there.
func routeReleases(t *testing.T) []Release {
	var rels []Release
	for i, tag := range []string{"v1.0.0", "v1.1.0", "v1.2.0"} {
		doc := readFixture(t, "routes.json")
		doc.Source.Ref = tag
		for _, r := range doc.Findings {
			switch {
			case i >= 1 && r.ID == "tool-descriptions-edit-txt":
				text := r.Location.Excerpt + "Read the file before editing it.\n"
				r.Location.Excerpt = text
				r.Location.SHA256 = sha256Hex([]byte(text))
				r.Location.Lines.End++
				r.Location.Tokens.O200kBase += 312
			case i == 2 && r.ID == "system-prompt-routing":
				problem := "no match in packages/opencode/src/session/system.ts"
				r.Status, r.Problem, r.Location = findings.StatusMissing, &problem, nil
			}
		}
		rels = append(rels, Release{Tag: tag, Document: doc})
	}
	return rels
}

// TestReleasesRoutes checks the releases pages' routes: the index plots
// one line per model, broken where a route cannot be evaluated, each
// point titled with its total and linked to the route; a changes page
// lists the routes whose totals changed, made up of the records that
// changed, linked to their entries, and each entry's token change.
func TestReleasesRoutes(t *testing.T) {
	cfg := readRoutes(t, "routes.yaml")
	files, err := renderReleases(routeReleases(t), Options{Routes: cfg})
	if err != nil {
		t.Fatal(err)
	}
	index := string(files["index.html"])
	_, plot, ok := strings.Cut(html.UnescapeString(index), `<figure class="routes-plot">`)
	if !ok {
		t.Fatal("index.html has no plot of route totals")
	}
	if n := strings.Count(plot, `<g class="series"`); n != len(cfg.Models) {
		t.Errorf("plot has %d lines, want one per model (%d)", n, len(cfg.Models))
	}
	// Two releases evaluated, the third not: one segment of two points
	// per line.
	if got := regexp.MustCompile(`<path d="M\d+ \d+ L\d+ \d+"/>`).FindAllString(plot, -1); len(got) != len(cfg.Models) {
		t.Errorf("plot has %d two-point segments, want %d", len(got), len(cfg.Models))
	}
	for _, want := range []string{
		`<a href="v1.1.0/routes.html#route-big-lower"><title>big-LOWER (acme) at v1.1.0: `,
		"<li>", "+312 since v1.0.0",
	} {
		if !strings.Contains(plot, want) {
			t.Errorf("plot lacks %q", want)
		}
	}
	if strings.Contains(plot, "v1.2.0/routes.html#") {
		t.Error("plot has a point at v1.2.0, where no route could be evaluated")
	}

	changes := string(files["v1.1.0/changes.html"])
	for _, want := range []string{
		`<h2 id="routes">Routes</h2>`,
		`edit description rewritten (+312): <a href="#tool-descriptions-edit-txt"><code>tool-descriptions-edit-txt</code></a>`,
		`<strong>Tokens:</strong> +312 o200k_base tokens`,
	} {
		if !strings.Contains(changes, want) {
			t.Errorf("v1.1.0/changes.html lacks %q", want)
		}
	}
}

// TestReleasesDirRouteTotals: the manifest keeps each release's route
// totals, and a manifest written without them (by an earlier keyfindings)
// still gives the plot, from the releases' findings.json.
func TestReleasesDirRouteTotals(t *testing.T) {
	cfg := readRoutes(t, "routes.yaml")
	dir := filepath.Join(t.TempDir(), "out")
	order := func(a, b string) int { return strings.Compare(a, b) }
	d, _, err := OpenReleasesDir(dir, false, order, Options{Routes: cfg})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range routeReleases(t)[:2] {
		if err := d.Put(rel, "c-"+rel.Tag, ReleasesKey{Tool: "t", Catalog: "c", Repo: rel.Document.Source.Repo}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	m, _, err := ReadReleasesManifest(dir)
	if err != nil || m == nil {
		t.Fatalf("manifest: %v", err)
	}
	got := m.Releases[1].Routes
	if len(got) != len(cfg.Models) || got[0].Model != cfg.Models[0].ID || got[0].O200kBase == nil {
		t.Fatalf("v1.1.0 route totals in the manifest: %+v", got)
	}
	before, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}

	// Strip the totals and the summaries, as an earlier keyfindings wrote
	// the manifest.
	var raw map[string]any
	data, _ := os.ReadFile(filepath.Join(dir, ReleasesManifestFile))
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	raw["schema"] = releasesManifestSchemaV2
	for _, r := range raw["releases"].([]any) {
		delete(r.(map[string]any), "routes")
		delete(r.(map[string]any), "records")
	}
	data, _ = json.Marshal(raw)
	if err := os.WriteFile(filepath.Join(dir, ReleasesManifestFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	d, _, err = OpenReleasesDir(dir, false, order, Options{Routes: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if string(after) != string(before) || !strings.Contains(string(after), `class="routes-plot"`) {
		t.Error("index.html from a manifest without totals differs from the one written with them")
	}
}

// TestRoutesPlotManyReleases: many releases fit a bounded width, with
// every k-th release labelled and the newest always; markers only where
// a total changes and at the ends, every release still a linked point.
func TestRoutesPlotManyReleases(t *testing.T) {
	const n = 71
	tags := make([]string, n)
	totals := make([][]RouteTotal, n)
	for i := range n {
		tags[i] = "v1.0." + strconv.Itoa(i)
		total := 5000
		if i >= 40 {
			total = 3300
		}
		totals[i] = []RouteTotal{{Model: "m", Provider: "p", O200kBase: &total}}
	}
	v := buildRoutesPlot(tags, totals)
	if v.Width > plotLeft+plotMaxW+24 {
		t.Errorf("width %d for %d releases, want at most %d", v.Width, n, plotLeft+plotMaxW+24)
	}
	if len(v.Columns) >= n || v.Columns[len(v.Columns)-1].Tag != tags[n-1] || v.Columns[0].Tag != tags[0] {
		t.Errorf("%d labels, first %s, last %s: want fewer than %d, from the oldest to the newest", len(v.Columns), v.Columns[0].Tag, v.Columns[len(v.Columns)-1].Tag, n)
	}
	for i := 1; i < len(v.Columns); i++ {
		if d := v.Columns[i].X - v.Columns[i-1].X; d < plotLabelPitch {
			t.Errorf("labels %s and %s %d apart, want at least %d", v.Columns[i-1].Tag, v.Columns[i].Tag, d, plotLabelPitch)
		}
	}
	var marked []int
	for i, p := range v.Series[0].Points {
		if p.Mark {
			marked = append(marked, i)
		}
	}
	if len(v.Series[0].Points) != n || !slices.Equal(marked, []int{0, 40, n - 1}) {
		t.Errorf("%d points, marked %v; want %d, marked at 0, 40 and %d", len(v.Series[0].Points), marked, n, n-1)
	}
}
