package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func diffStatuses(t *testing.T, out string) map[string]string {
	t.Helper()
	var d struct {
		Findings []struct {
			ID, Status string
		}
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("diff --format json: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, f := range d.Findings {
		got[f.ID] = f.Status
	}
	return got
}

func TestDiffStatuses(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		a, b string
		want map[string]string
	}{
		{"v0.1.0", "v0.2.0", map[string]string{
			"system-header":  "unchanged",
			"output-limit":   "changed", // max 2000 → 1000, marker text
			"registry-order": "moved",   // lines added above it
			"tool-ids-bash":  "unchanged",
			"tool-ids-read":  "removed",
			"tool-ids-grep":  "added",
			"legacy-hook":    "lost",    // its file was deleted
			"never-there":    "missing", // in neither
		}},
		{"v0.2.0", "v0.1.0", map[string]string{
			"system-header":  "unchanged",
			"output-limit":   "changed",
			"registry-order": "moved",
			"tool-ids-bash":  "unchanged",
			"tool-ids-grep":  "removed",
			"tool-ids-read":  "added",
			"legacy-hook":    "found", // a record at v0.2.0, not located there
			"never-there":    "missing",
		}},
		{"v0.2.0", "v0.3.0", map[string]string{
			"system-header":  "unchanged",
			"output-limit":   "unchanged",
			"registry-order": "moved", // same bytes, other file
			"tool-ids-bash":  "unchanged",
			"tool-ids-grep":  "unchanged",
			"legacy-hook":    "missing",
			"never-there":    "missing",
		}},
	}
	for _, tt := range tests {
		args := append([]string{"diff"}, f.src()...)
		args = append(args, tt.a, tt.b, "--format", "json")
		out, stderr, code := kf(args...)
		if code != 0 {
			t.Fatalf("diff %s %s: exit %d: %s", tt.a, tt.b, code, stderr)
		}
		if got := diffStatuses(t, out); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("diff %s %s:\n got %v\nwant %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestDiffGolden(t *testing.T) {
	f := newFixture(t)
	for _, tt := range []struct{ a, b, format, file string }{
		{"v0.1.0", "v0.2.0", "md", "diff-v0.1.0-v0.2.0.md"},
		{"v0.1.0", "v0.2.0", "text", "diff-v0.1.0-v0.2.0.txt"},
		{"v0.1.0", "v0.2.0", "json", "diff-v0.1.0-v0.2.0.json"},
		{"v0.2.0", "v0.3.0", "text", "diff-v0.2.0-v0.3.0.txt"},
	} {
		args := append([]string{"diff"}, f.src()...)
		out, stderr, code := kf(append(args, tt.a, tt.b, "--format", tt.format)...)
		if code != 0 {
			t.Fatalf("diff: exit %d: %s", code, stderr)
		}
		golden(t, tt.file, out)
	}
}

// TestDiffFiles checks that two findings.json files diff exactly as the
// refs they were built from.
func TestDiffFiles(t *testing.T) {
	f := newFixture(t)
	tmp := t.TempDir()
	var files []string
	for _, tag := range fixtureTags[:2] {
		out := filepath.Join(tmp, tag)
		args := append([]string{"build"}, f.src()...)
		if _, stderr, code := kf(append(args, "--ref", tag, "--out", out)...); code != 0 {
			t.Fatalf("build %s: %s", tag, stderr)
		}
		files = append(files, filepath.Join(out, "findings.json"))
	}
	args := append([]string{"diff"}, f.src()...)
	fromRefs, _, _ := kf(append(args, "v0.1.0", "v0.2.0", "--format", "md")...)
	fromFiles, stderr, code := kf("diff", files[0], files[1], "--format", "md")
	if code != 0 {
		t.Fatalf("diff files: exit %d: %s", code, stderr)
	}
	if fromFiles != fromRefs {
		t.Errorf("diff of findings.json files differs from diff of refs:\n%s\n---\n%s", fromFiles, fromRefs)
	}
	// One side a file, the other a ref.
	mixed, stderr, code := kf(append(args, files[0], "v0.2.0", "--format", "md")...)
	if code != 0 || mixed != fromRefs {
		t.Errorf("diff file ref: exit %d, %s\n%s", code, stderr, mixed)
	}
}

func TestDiffExitCodes(t *testing.T) {
	f := newFixture(t)
	src := f.src()
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string // substring, "" for none
	}{
		// v0.2.0 has a finding missing; missing on both sides for the same
		// reason is no difference, as git diff --exit-code sees it.
		{"same ref, --exit-code: nothing differs", []string{"v0.2.0", "v0.2.0", "--exit-code"}, 0, ""},
		{"differences, no --exit-code", []string{"v0.1.0", "v0.2.0"}, 0, ""},
		{"differences, --exit-code", []string{"v0.1.0", "v0.2.0", "--exit-code"}, 1, ""},
		{"one argument", []string{"v0.1.0"}, 2, "want two refs"},
		{"--ref is not for diff", []string{"--ref", "v0.1.0", "v0.1.0", "v0.2.0"}, 2, "not defined: -ref"},
		{"bad format", []string{"v0.1.0", "v0.2.0", "--format", "html"}, 2, "--format"},
		{"unknown ref", []string{"v0.1.0", "v9.9.9"}, 1, "v9.9.9"},
		{"missing file", []string{"nope.json", "v0.1.0"}, 1, "nope.json: no such findings.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{"diff"}, src...), tt.args...)
			_, stderr, code := kf(args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			if tt.stderr == "" {
				if stderr != "" {
					t.Errorf("stderr %q, want none", stderr)
				}
				return
			}
			oneLineErr(t, stderr)
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q, want it to name %q", stderr, tt.stderr)
			}
		})
	}
}

// TestDiffExitCodeClean uses definitions that all locate unchanged, so
// --exit-code exits 0.
func TestDiffExitCodeClean(t *testing.T) {
	f := newFixture(t)
	defs := t.TempDir()
	data, err := os.ReadFile(filepath.Join(fixtureDefs, "system-header.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(defs, "system-header.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := kf("diff", "--repo", f.dir, "--defs", defs, "--quiet", "v0.1.0", "v0.3.0", "--exit-code")
	if code != 0 {
		t.Errorf("exit %d, want 0: %s%s", code, out, stderr)
	}
	if !strings.Contains(out, "unchanged  system-header") {
		t.Errorf("output:\n%s", out)
	}
}

// TestDiffChanged checks --changed: only what differs, one line when
// nothing does, and the default for --format md only.
func TestDiffChanged(t *testing.T) {
	f := newFixture(t)
	diff := func(args ...string) string {
		t.Helper()
		out, stderr, code := kf(append(append([]string{"diff"}, f.src()...), args...)...)
		if code != 0 {
			t.Fatalf("diff %v: exit %d: %s", args, code, stderr)
		}
		return out
	}
	lines := func(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

	// v0.2.0 against itself: never-there is missing on both sides for the
	// same reason, the rest unchanged.
	for _, args := range [][]string{
		{"v0.2.0", "v0.2.0", "--changed", "--exit-code"},
		{"v0.2.0", "v0.2.0", "--format", "md"},
	} {
		out := diff(args...)
		if l := lines(out); len(l) != 1 || !strings.Contains(strings.ToLower(l[0]), "nothing changed between v0.2.0") {
			t.Errorf("diff %v: want one line saying nothing changed, got:\n%s", args, out)
		}
	}
	if out := diff("v0.2.0", "v0.2.0"); !strings.Contains(out, "unchanged  system-header") {
		t.Errorf("text without --changed lists every finding:\n%s", out)
	}

	out := diff("v0.1.0", "v0.2.0", "--changed")
	if strings.Contains(out, "unchanged  ") || !strings.Contains(out, "changed    output-limit") || !strings.Contains(out, "lost       legacy-hook") {
		t.Errorf("--changed lists an unchanged finding or drops a changed one:\n%s", out)
	}
	if last := lines(out)[len(lines(out))-1]; !strings.HasPrefix(last, "2 unchanged, ") {
		t.Errorf("--changed summary %q, want it to count the unchanged too", last)
	}
	md := diff("v0.1.0", "v0.2.0", "--format", "md", "--changed=false")
	if !strings.Contains(md, "| `system-header` ") {
		t.Errorf("md --changed=false does not list unchanged findings:\n%s", md)
	}
	var j struct{ Findings []struct{ Status string } }
	if err := json.Unmarshal([]byte(diff("v0.1.0", "v0.2.0", "--format", "json", "--changed")), &j); err != nil {
		t.Fatal(err)
	}
	for _, fd := range j.Findings {
		if fd.Status == "unchanged" {
			t.Errorf("json --changed lists an unchanged finding")
		}
	}
}

// TestDiffNotAFindingsFile names the file and what was expected, in one
// line, when an argument is JSON of another kind.
func TestDiffNotAFindingsFile(t *testing.T) {
	dir := t.TempDir()
	arr := filepath.Join(dir, "a.json")
	if err := os.WriteFile(arr, []byte(`[1, 2]`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := kf("diff", arr, arr)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	oneLineErr(t, stderr)
	for _, want := range []string{arr + ": not a findings.json", "keyfindings build", "JSON array"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	if strings.Contains(stderr, "Go value") {
		t.Errorf("stderr %q speaks of Go types", stderr)
	}
}
