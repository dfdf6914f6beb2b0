package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// linesHash is `sed -n 'a,bp' file | sha256sum` over a fixture file,
// computed here independently of extract.
func linesHash(t *testing.T, file string, a, b int) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	sum := sha256.Sum256([]byte(strings.Join(lines[a-1:b], "")))
	return hex.EncodeToString(sum[:])
}

func TestCite(t *testing.T) {
	f := newFixture(t)
	c1 := f.commits[0]
	hash := linesHash(t, filepath.Join(fixtureDir, "history/1/src/tool/registry.ts"), 3, 5)
	permalink := fixtureWeb + "/blob/" + c1 + "/src/tool/registry.ts#L3-L5"
	cite := func(args ...string) (string, string, int) {
		return kf(append(append([]string{"cite"}, f.src()...), args...)...)
	}

	out, stderr, code := cite("registry-order", "--ref", "v0.1.0")
	want := "[src/tool/registry.ts L3–5 @" + c1[:7] + "](" + permalink + ") · SHA-256 " + hash[:12] + "… · registry-order\n"
	if code != 0 || out != want {
		t.Errorf("cite md: exit %d %s\n got %q\nwant %q", code, stderr, out, want)
	}
	out, _, code = cite("registry-order", "--ref", "v0.1.0", "--format", "url")
	if code != 0 || out != permalink+"\n" {
		t.Errorf("cite url: exit %d, %q", code, out)
	}
	out, _, code = cite("registry-order", "--ref", "v0.1.0", "--format", "json")
	var rec struct {
		ID, SHA256 string
	}
	if err := json.Unmarshal([]byte(out), &rec); code != 0 || err != nil || rec.ID != "registry-order" || rec.SHA256 != hash {
		t.Errorf("cite json: exit %d, %v, %+v", code, err, rec)
	}

	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"not located", []string{"legacy-hook", "--ref", "v0.2.0"}, 1, "legacy-hook is missing: file not found: src/plugin/legacy.ts"},
		{"never located", []string{"never-there"}, 1, "never-there is missing"},
		{"unknown id", []string{"no-such-finding"}, 1, `no finding "no-such-finding"`},
		{"no id", nil, 2, "want one finding id"},
		{"bad format", []string{"registry-order", "--format", "html"}, 2, "--format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := cite(tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.stderr)
			}
			oneLineErr(t, stderr)
		})
	}
}

// TestCitePlainDir: a plain directory has no commit, so the citation drops
// the link and the @commit and puts the path in a code span.
func TestCitePlainDir(t *testing.T) {
	dir := filepath.Join(fixtureDir, "history/1")
	hash := linesHash(t, filepath.Join(dir, "src/tool/registry.ts"), 3, 5)
	out, stderr, code := kf("cite", "--repo", dir, "--defs", fixtureDefs, "registry-order")
	if want := "`src/tool/registry.ts` L3–5 · SHA-256 " + hash[:12] + "… · registry-order\n"; code != 0 || out != want {
		t.Errorf("exit %d %s\n got %q\nwant %q", code, stderr, out, want)
	}
	_, stderr, code = kf("cite", "--repo", dir, "--defs", fixtureDefs, "registry-order", "--format", "url")
	if code != 1 || !strings.Contains(stderr, "no permalink") {
		t.Errorf("url for a plain directory: exit %d, %q", code, stderr)
	}
}
