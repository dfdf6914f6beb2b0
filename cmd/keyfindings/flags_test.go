package main

import (
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestHelpListsOnlyUsedFlags checks each command's -h against the flags
// it uses: a flag that is accepted and ignored (diff --ref,
// review --web-url) misleads.
func TestHelpListsOnlyUsedFlags(t *testing.T) {
	source := []string{"cache", "quiet", "repo", "timeout"}
	want := map[string][]string{
		"build":    append([]string{"defs", "force", "out", "ref", "strict", "templates", "web-url"}, source...),
		"releases": append([]string{"defs", "force", "from", "match", "out", "prune", "templates", "to", "web-url"}, source...),
		"list":     {"defs"},
		"diff":     append([]string{"changed", "defs", "exit-code", "format", "web-url"}, source...),
		"cite":     append([]string{"defs", "format", "ref", "web-url"}, source...),
		"verify":   append([]string{"defs", "ref", "web-url"}, source...),
		"serve":    {"addr", "out"},
		"review":   append([]string{"accept", "defs", "force", "ref"}, source...),
		"route":    append([]string{"defs", "format", "provider", "ref", "web-url"}, source...),
		"log":      append([]string{"all-commits", "defs", "format", "from", "to", "web-url"}, source...),
	}
	flagLine := regexp.MustCompile(`(?m)^  -([a-z-]+)`)
	for _, c := range commands() {
		code, stdout, stderr := runCmd(c.name, "-h")
		if code != 0 || stdout != "" {
			t.Errorf("%s -h: exit %d, stdout %q", c.name, code, stdout)
		}
		var got []string
		for _, m := range flagLine.FindAllStringSubmatch(stderr, -1) {
			got = append(got, m[1])
		}
		w := append([]string(nil), want[c.name]...)
		sort.Strings(w)
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s -h lists %v, want %v", c.name, got, w)
		}
	}
	for _, args := range [][]string{
		{"diff", "--ref", "v1", "a", "b"},
		{"review", "--web-url", "https://example.com"},
	} {
		code, _, stderr := runCmd(args...)
		if code != 2 || !strings.Contains(stderr, "not defined: "+strings.TrimPrefix(args[1], "-")) {
			t.Errorf("%v: exit %d, stderr %q; want a usage error naming %s", args, code, stderr, args[1])
		}
	}
}
