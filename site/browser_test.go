package site

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// findBrowser returns a Chromium or Chrome executable, or "".
func findBrowser() string {
	if p := os.Getenv("KEYFINDINGS_BROWSER"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browserLog collects what the page did that it should not.
type browserLog struct {
	mu       sync.Mutex
	requests []string
	errors   []string
}

func (b *browserLog) add(list *[]string, s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	*list = append(*list, s)
}

func (b *browserLog) snapshot() (requests, errors []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.requests...), append([]string(nil), b.errors...)
}

// TestBrowser opens the rendered fixture site from disk in headless
// Chromium, follows a finding's link to its anchor on a page, and checks
// that no page requested anything but file:// URLs, logged no console
// error, ran no script, fits a phone's width, and prints folded excerpts.
// KEYFINDINGS_BROWSER_SITE names another built site to check the same way
// (for example one built from the real upstream).
func TestBrowser(t *testing.T) {
	browser := findBrowser()
	if browser == "" {
		t.Skip("no browser found (looked for /usr/bin/chromium, chromium, chromium-browser, google-chrome; set KEYFINDINGS_BROWSER); install Debian's chromium to run this test")
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	files, err := RenderWith(readFixture(t, "findings.json"), testLicense, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if err := WriteDir(dir, files, false); err != nil {
		t.Fatal(err)
	}
	t.Run("fixture", func(t *testing.T) { checkInBrowser(t, browser, dir) })
	if other := os.Getenv("KEYFINDINGS_BROWSER_SITE"); other != "" {
		abs, err := filepath.Abs(other)
		if err != nil {
			t.Fatal(err)
		}
		t.Run("KEYFINDINGS_BROWSER_SITE", func(t *testing.T) { checkInBrowser(t, browser, abs) })
	}
}

// sitePages are the HTML files of a built site.
var sitePages = []string{"index.html", "prompts.html", "tools.html", "configuration.html", "network.html"}

func checkInBrowser(t *testing.T, browser, dir string) {
	base := (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir) + "/"}).String()
	sess := openBrowser(t, browser)
	ctx, seen, eval, do := sess.ctx, sess.seen, sess.eval, sess.do

	// The index, styled by its local stylesheet, without scripts.
	do(chromedp.Navigate(base+"index.html"), chromedp.WaitVisible(chromedp.CSS("h1")))
	if ff, _ := eval(`getComputedStyle(document.body).fontFamily`).(string); !strings.Contains(ff, "system-ui") {
		t.Errorf("style.css not applied: body font-family %q", ff)
	}
	if n := eval(`document.scripts.length`); n != 0.0 {
		t.Errorf("index.html has %v scripts", n)
	}

	// Follow the first finding's link from the index to its full record.
	href, _ := eval(`(document.querySelector('main a[href*=".html#"]') || {}).getAttribute?.("href") || ""`).(string)
	page, id, ok := strings.Cut(href, "#")
	if !ok || id == "" {
		t.Fatalf("index.html links to no finding on a page (found %q)", href)
	}
	do(
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`main a[href=%q]`, href))),
		chromedp.WaitVisible(chromedp.ID(id)),
	)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`location.hash === %q && document.readyState === "complete"`, "#"+id), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v", href, err)
	}
	if loc, _ := eval(`location.href`).(string); !strings.HasSuffix(loc, "/"+href) {
		t.Errorf("after the click the page is %s, want %s", loc, href)
	}
	if target := eval(`(document.querySelector(":target") || {}).id || ""`); target != id {
		t.Errorf("%s: :target is %q, want %q", page, target, id)
	}
	if top, _ := eval(fmt.Sprintf(`document.getElementById(%q).getBoundingClientRect().top`, id)).(float64); top < 0 || top > 100 {
		t.Errorf("%s: the anchor is %.0fpx from the top of the window, want it scrolled into view", href, top)
	}

	// Every page fits a phone's width: wide code and tables scroll inside
	// their boxes, the page itself does not.
	do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	folded := ""
	for _, page := range sitePages {
		do(chromedp.Navigate(base+page), chromedp.WaitVisible(chromedp.CSS("h1")))
		sw, _ := eval(`document.documentElement.scrollWidth`).(float64)
		iw, _ := eval(`window.innerWidth`).(float64)
		if iw != 390 || sw > iw {
			t.Errorf("%s is %.0fpx wide in a %.0fpx window", page, sw, iw)
		}
		if folded == "" && eval(`document.querySelector("details.excerpt pre") !== null`) == true {
			folded = page
		}
	}

	// In print, a folded excerpt is printed open.
	if folded == "" {
		t.Log("no folded excerpt to check in print")
	} else {
		do(chromedp.EmulateReset(), chromedp.Navigate(base+folded), chromedp.WaitVisible(chromedp.CSS("h1")))
		const visible = `document.querySelector("details.excerpt pre").checkVisibility()`
		if v := eval(visible); v != false {
			t.Errorf("%s: the long excerpt is not folded on screen (visible: %v)", folded, v)
		}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
			t.Fatal(err)
		}
		if v := eval(visible); v != true {
			t.Errorf("%s: the folded excerpt does not print (visible: %v)", folded, v)
		}
	}

	requests, errors := seen.snapshot()
	if len(requests) == 0 {
		t.Error("saw no requests at all; is the network listener working?")
	}
	for _, u := range requests {
		if !strings.HasPrefix(u, "file://") {
			t.Errorf("request to %s", u)
		}
	}
	for _, e := range errors {
		t.Errorf("browser reported %s", e)
	}
}
