package main

import (
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"
)

// logEntries runs log --format json and returns each entry as
// "kind subject release".
func logEntries(t *testing.T, f *fixture, args ...string) []string {
	t.Helper()
	out, stderr, code := kf(append(append([]string{"log"}, args...), append(f.src(), "--format", "json")...)...)
	if code != 0 {
		t.Fatalf("log %v: exit %d: %s", args, code, stderr)
	}
	var entries []struct {
		Commit, Kind, Subject string
		Release               *string
	}
	if err := json.Unmarshal([]byte(out), &entries); err != nil {
		t.Fatalf("log %v: %v\n%s", args, err, out)
	}
	var got []string
	for _, e := range entries {
		rel := "null"
		if e.Release != nil {
			rel = *e.Release
		}
		got = append(got, e.Kind+" "+e.Subject+" "+rel)
	}
	return got
}

func TestLogCommand(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"output-limit"}, "changed fixture v0.2.0 v0.2.0|appeared fixture v0.1.0 v0.1.0"},
		{[]string{"registry-order"}, "moved fixture v0.3.0 v0.3.0|appeared fixture v0.1.0 v0.1.0"},
		{[]string{"legacy-hook"}, "disappeared fixture v0.2.0 v0.2.0|appeared fixture v0.1.0 v0.1.0"},
		{[]string{"legacy-hook", "--from", "v0.1.0"}, "disappeared fixture v0.2.0 v0.2.0"},
		{[]string{"output-limit", "--to", "v0.1.0"}, "appeared fixture v0.1.0 v0.1.0"},
		{[]string{"never-there"}, ""},
		// One record of an expect: all definition: grep's appears in v0.2.0.
		{[]string{"tool-ids-grep"}, "appeared fixture v0.2.0 v0.2.0"},
	} {
		if got := strings.Join(logEntries(t, f, c.args...), "|"); got != c.want {
			t.Errorf("log %v: %q, want %q", c.args, got, c.want)
		}
	}
	// Several records at once: one array, each entry naming its record.
	if got := strings.Join(logEntries(t, f, "legacy-hook", "output-limit"), "|"); got != "disappeared fixture v0.2.0 v0.2.0|appeared fixture v0.1.0 v0.1.0|changed fixture v0.2.0 v0.2.0|appeared fixture v0.1.0 v0.1.0" {
		t.Errorf("log legacy-hook output-limit: %q", got)
	}
	out, stderr, code := kf(append([]string{"log", "output-limit"}, f.src()...)...)
	if code != 0 || !strings.HasPrefix(out, "commit "+f.commits[1]+"\n") || !strings.Contains(out, "Release: v0.2.0\n") {
		t.Errorf("log text: exit %d, stderr %q\n%s", code, stderr, out)
	}
}

func TestLogCommandErrors(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{append([]string{"log", "tool-ids"}, f.src()...), 2, "give one record id: tool-ids-bash, tool-ids-grep"},
		{append([]string{"log", "no-such"}, f.src()...), 1, `no finding "no-such"`},
		{append([]string{"log", "output-limit", "--format", "yaml"}, f.src()...), 2, "--format"},
		{append([]string{"log"}, f.src()...), 2, "want a finding id"},
		{append([]string{"log", "output-limit", "--from", "v9.9.9"}, f.src()...), 1, "--from"},
		{[]string{"log", "output-limit", "--repo", t.TempDir(), "--defs", fixtureDefs}, 1, "plain directory"},
	} {
		_, stderr, code := kf(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args[1:], code, stderr, c.code, c.want)
		}
		oneLineErr(t, stderr)
	}
}

// TestLogGCPercent: a log collects garbage at logGCPercent unless GOGC
// says otherwise, under a soft memory limit of logMemoryLimit unless
// GOMEMLIMIT says otherwise, and restores both when it ends.
func TestLogGCPercent(t *testing.T) {
	f := newFixture(t)
	run := func(hook func()) {
		onLogWalk = hook
		defer func() { onLogWalk = func() {} }()
		logEntries(t, f, "output-limit")
	}
	checkRunSetting(t, "GOGC", "200", logGCPercent, func() int64 { return int64(gcPercentNow()) }, run)
	checkRunSetting(t, "GOMEMLIMIT", "1GiB", logMemoryLimit, func() int64 { return debug.SetMemoryLimit(-1) }, run)
}
