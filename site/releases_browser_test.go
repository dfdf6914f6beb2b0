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
// Chromium: the index links a finding's timeline, whose mark of a change
// is a working link to the finding on that release's changes page; the
// index, a minor version's page, a timeline and a release's pages fit a
// phone (nothing wider than the window); and nothing but file:// URLs is
// requested, with no console errors.
func TestReleasesInBrowser(t *testing.T) {
	browser := findBrowser()
	if browser == "" {
		t.Skip("no browser found (set KEYFINDINGS_BROWSER); install Debian's chromium to run this test")
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	files, err := renderReleases(twoReleases(t), Options{})
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

	// From the index to route-model's timeline, and from its change to
	// the changes page.
	do(chromedp.Navigate(base+"index.html"), chromedp.WaitVisible(chromedp.ID("findings")))
	const timelineLink = `a[href="timeline/route-model.html"]`
	do(chromedp.Click(chromedp.CSS(timelineLink)), chromedp.WaitVisible(chromedp.CSS("main li")))
	const mark = `a[href="../v9.9.9/changes.html#route-model"]`
	if text, _ := eval(`document.querySelector('` + mark + `').textContent`).(string); text != "changed" {
		t.Errorf("the timeline's mark at v9.9.9 reads %q, want changed", text)
	}
	if n, _ := eval(`document.querySelectorAll("main li").length`).(float64); n != 2 {
		t.Errorf("the timeline has %v lines, want 2 (the first release, the change)", n)
	}
	do(chromedp.Click(chromedp.CSS(mark)), chromedp.WaitVisible(chromedp.ID("route-model")))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`location.hash === "#route-model" && document.readyState === "complete"`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("waiting for the mark's target: %v", err)
	}
	if loc, _ := eval(`location.href`).(string); !strings.HasSuffix(loc, "/v9.9.9/changes.html#route-model") {
		t.Errorf("after clicking the mark the page is %s", loc)
	}

	do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	for _, page := range []string{"index.html", "v9.9.html", "timeline/route-model.html", "timeline/tool-list.html", "v9.9.9/changes.html", "v9.9.9/index.html", "v9.9.9/prompts.html"} {
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
