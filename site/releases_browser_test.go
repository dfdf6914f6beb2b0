package site

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
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
			r.Excerpt, r.SHA256 = &excerpt, &sum
		case "tool-list":
			r.Lines = &findings.Lines{Start: r.Lines.Start - 3, End: r.Lines.End - 3}
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

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 900))
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(ctx)
	defer cancelTab()
	var seen browserLog
	if err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			seen.add(&seen.requests, ev.Request.URL)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				seen.add(&seen.errors, "console."+string(ev.Type))
			}
		case *runtime.EventExceptionThrown:
			seen.add(&seen.errors, "exception: "+ev.ExceptionDetails.Text)
		}
	}); err != nil {
		t.Fatal(err)
	}
	eval := func(expr string) any {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[any](expr))
		if err != nil {
			t.Fatalf("evaluate %s: %v", expr, err)
		}
		return v
	}
	do := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", browser, err)
		}
	}

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
