package site

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/keyfindings/keyfindings/findings"
)

// twoReleases returns the site fixture as two releases: v9.9.8, and
// v9.9.9 in which route-model changed and tool-list moved.
func twoReleases(t *testing.T) []Release {
	t.Helper()
	newer := readFixture(t, "findings.json")
	data, err := newer.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	older, err := findings.DecodeDocument(data, "copy")
	if err != nil {
		t.Fatal(err)
	}
	older.Source.Ref = "v9.9.8"
	for _, r := range older.Findings {
		switch r.ID {
		case "route-model":
			excerpt, sum := "function route() {}\n", "0000000000000000000000000000000000000000000000000000000000000000"
			r.Location.Excerpt, r.Location.SHA256 = excerpt, sum
		case "tool-list":
			r.Location.Lines = findings.Lines{Start: r.Location.Lines.Start - 3, End: r.Location.Lines.End - 3}
		}
	}
	return []Release{{Tag: "v9.9.8", Document: older, License: testLicense}, {Tag: "v9.9.9", Document: newer, License: testLicense}}
}

// TestReleasesInBrowser opens a releases directory from disk in headless
// Chromium: a cell of the picture is a working link to the finding's
// anchor at that release, the pages fit a phone (the picture scrolls in
// its box), and nothing but file:// URLs is requested, with no console
// errors.
func TestReleasesInBrowser(t *testing.T) {
	browser := findBrowser()
	if browser == "" {
		t.Skip("no browser found (set KEYFINDINGS_BROWSER); install Debian's chromium to run this test")
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	files, err := RenderReleases(twoReleases(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "rel")
	if err := WriteDir(dir, files, false); err != nil {
		t.Fatal(err)
	}
	base := (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir) + "/"}).String()

	sess := openBrowser(t, browser)
	ctx, seen, eval, do := sess.ctx, sess.seen, sess.eval, sess.do

	do(chromedp.Navigate(base+"index.html"), chromedp.WaitVisible(chromedp.CSS("svg")))
	if w, _ := eval(`document.querySelector("figure svg").getBoundingClientRect().width`).(float64); w < 100 {
		t.Errorf("the picture is %.0fpx wide", w)
	}
	if n, _ := eval(`document.querySelectorAll("svg a.cell").length`).(float64); n != 2*11 {
		t.Errorf("%v linked cells, want 22", n)
	}
	// Click the changed cell: it leads to route-model on v9.9.9's page.
	const cell = `svg a.cell.changed`
	if title, _ := eval(`document.querySelector("` + cell + ` title").textContent`).(string); !strings.HasPrefix(title, "route-model at v9.9.9: changed") {
		t.Errorf("changed cell's title is %q", title)
	}
	do(chromedp.Click(chromedp.CSS(cell)), chromedp.WaitVisible(chromedp.ID("route-model")))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`location.hash === "#route-model" && document.readyState === "complete"`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("waiting for the cell's target: %v", err)
	}
	if loc, _ := eval(`location.href`).(string); !strings.HasSuffix(loc, "/v9.9.9/prompts.html#route-model") {
		t.Errorf("after clicking the cell the page is %s", loc)
	}

	do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	for _, page := range []string{"index.html", "v9.9.9/changes.html"} {
		do(chromedp.Navigate(base+page), chromedp.WaitVisible(chromedp.CSS("h1")))
		sw, _ := eval(`document.documentElement.scrollWidth`).(float64)
		if iw, _ := eval(`window.innerWidth`).(float64); iw != 390 || sw > iw {
			t.Errorf("%s is %.0fpx wide in a %.0fpx window", page, sw, iw)
		}
		if n := eval(`document.scripts.length`); n != 0.0 {
			t.Errorf("%s has %v scripts", page, n)
		}
	}

	requests, errors := seen.snapshot()
	for _, u := range requests {
		if !strings.HasPrefix(u, "file://") {
			t.Errorf("request to %s", u)
		}
	}
	for _, e := range errors {
		t.Errorf("browser reported %s", e)
	}
	if len(requests) == 0 {
		t.Error("saw no requests at all; is the listener working?")
	}
}
