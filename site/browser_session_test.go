package site

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// browserSession is a headless browser tab that records every request and
// every console error, warning or exception, for the browser tests.
type browserSession struct {
	t       *testing.T
	ctx     context.Context
	browser string
	seen    *browserLog
}

// openBrowser starts browser headless with a fresh profile and no
// background networking; it is closed when the test ends.
func openBrowser(t *testing.T, browser string) *browserSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(browser),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
	)
	ctx, cancelTab := chromedp.NewContext(ctx)
	t.Cleanup(func() { cancelTab(); cancelAlloc(); cancel() })
	s := &browserSession{t: t, ctx: ctx, browser: browser, seen: &browserLog{}}
	seen := s.seen
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			seen.add(&seen.requests, ev.Request.URL)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				seen.add(&seen.errors, fmt.Sprintf("console.%s with %d arguments", ev.Type, len(ev.Args)))
			}
		case *runtime.EventExceptionThrown:
			seen.add(&seen.errors, "exception: "+ev.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
				seen.add(&seen.errors, fmt.Sprintf("log %s: %s %s", ev.Entry.Level, ev.Entry.Text, ev.Entry.URL))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// eval evaluates a JavaScript expression in the tab.
func (s *browserSession) eval(expr string) any {
	s.t.Helper()
	v, err := chromedp.Run(s.ctx, chromedp.Evaluate[any](expr))
	if err != nil {
		s.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// do runs browser actions, failing the test on error.
func (s *browserSession) do(steps ...chromedp.Action[chromedp.Void]) {
	s.t.Helper()
	if err := chromedp.Do(s.ctx, steps...); err != nil {
		s.t.Fatalf("%s: %v", s.browser, err)
	}
}
