package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func (f *fixture) cite(t *testing.T, id, ref string) string {
	t.Helper()
	out, stderr, code := kf(append(append([]string{"cite"}, f.src()...), id, "--ref", ref)...)
	if code != 0 {
		t.Fatalf("cite %s at %s: %s", id, ref, stderr)
	}
	return strings.TrimSuffix(out, "\n")
}

func (f *fixture) verify(args ...string) (string, string, int) {
	return kf(append([]string{"verify", "--repo", f.dir, "--web-url", fixtureWeb, "--quiet"}, args...)...)
}

// TestCiteVerifyRoundTrip: every citation cite prints verifies as ok at
// its own commit.
func TestCiteVerifyRoundTrip(t *testing.T) {
	f := newFixture(t)
	for _, ref := range fixtureTags {
		for _, id := range []string{"system-header", "output-limit", "registry-order", "tool-ids-bash"} {
			c := f.cite(t, id, ref)
			out, stderr, code := f.verify(c)
			if code != 0 || out != "ok  "+c+"\n1 ok, 0 moved, 0 changed\n" {
				t.Errorf("verify %s at %s: exit %d %s\n%s", id, ref, code, stderr, out)
			}
		}
	}
}

func TestVerifyTampered(t *testing.T) {
	f := newFixture(t)
	c := f.cite(t, "output-limit", "v0.1.0")
	i := strings.Index(c, "SHA-256 ") + len("SHA-256 ")
	flip := map[byte]byte{'0': '1'}
	b := []byte(c)
	if r, ok := flip[b[i]]; ok {
		b[i] = r
	} else {
		b[i] = '0'
	}
	tampered := string(b)
	out, _, code := f.verify(tampered)
	if code != 1 || !strings.HasPrefix(out, "changed "+tampered+": the lines at "+f.commits[0][:7]+" hash to SHA-256 "+c[i:i+12]+"…") {
		t.Errorf("tampered hash: exit %d\n%s", code, out)
	}
	// Tampering is caught with --ref too: the bytes at the cited commit
	// are checked before they are looked for elsewhere.
	if out, _, code := f.verify("--ref", "v0.1.0", tampered); code != 1 || !strings.HasPrefix(out, "changed ") {
		t.Errorf("tampered hash with --ref: exit %d\n%s", code, out)
	}
}

func TestVerifyStale(t *testing.T) {
	f := newFixture(t)
	registry := f.cite(t, "registry-order", "v0.1.0")
	hash := registry[strings.Index(registry, "SHA-256 ")+8:]
	tests := []struct {
		name string
		cite string
		ref  string
		want string
		code int
	}{
		{"same commit", registry, "v0.1.0", "ok  " + registry + "\n1 ok, 0 moved, 0 changed", 0},
		{"other lines", registry, "v0.2.0",
			"moved " + registry + " → [src/tool/registry.ts L5–7 @" + f.commits[1][:7] + "](" + fixtureWeb + "/blob/" + f.commits[1] + "/src/tool/registry.ts#L5-L7) · SHA-256 " + hash + "\n0 ok, 1 moved, 0 changed", 1},
		{"other file", registry, "v0.3.0",
			"moved " + registry + " → [src/tool/builtin/registry.ts L5–7 @" + f.commits[2][:7] + "](" + fixtureWeb + "/blob/" + f.commits[2] + "/src/tool/builtin/registry.ts#L5-L7) · SHA-256 " + hash + "\n0 ok, 1 moved, 0 changed", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, stderr, code := f.verify("--ref", tt.ref, tt.cite)
			if code != tt.code || out != tt.want+"\n" {
				t.Errorf("exit %d %s\n got %s\nwant %s", code, stderr, out, tt.want)
			}
		})
	}
	// The new citation verifies as ok where it points.
	out, _, _ := f.verify("--ref", "v0.2.0", registry)
	moved, _, _ := strings.Cut(out[strings.Index(out, "→ ")+len("→ "):], "\n")
	if out, _, code := f.verify(moved); code != 0 {
		t.Errorf("the moved citation does not verify: %s", out)
	}

	limit := f.cite(t, "output-limit", "v0.1.0")
	out, _, code := f.verify("--ref", "v0.2.0", limit)
	if code != 1 || !strings.HasPrefix(out, "changed "+limit+": the cited lines are not in src/tool/truncate.ts or any other .ts/.tsx/.txt file at v0.2.0") {
		t.Errorf("changed code: exit %d\n%s", code, out)
	}
	legacy := f.cite(t, "legacy-hook", "v0.1.0")
	out, _, code = f.verify("--ref", "v0.2.0", legacy)
	if code != 1 || !strings.Contains(out, ": src/plugin/legacy.ts does not exist at v0.2.0, and no other .ts/.tsx/.txt file holds the cited lines") {
		t.Errorf("removed file: exit %d\n%s", code, out)
	}
}

func TestVerifyInputs(t *testing.T) {
	f := newFixture(t)
	tmp := t.TempDir()
	c1 := f.cite(t, "registry-order", "v0.1.0")
	c2 := f.cite(t, "tool-ids-bash", "v0.2.0")

	md := filepath.Join(tmp, "notes.md")
	text := "# Review\n\nThe registry ([docs](https://example.com/docs)): " + c1 + ".\n\n- bash: " + c2 + "\n"
	if err := os.WriteFile(md, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := f.verify(md)
	if code != 0 || out != "ok  "+c1+"\nok  "+c2+"\n2 ok, 0 moved, 0 changed\n" {
		t.Errorf("markdown file: exit %d %s\n%s", code, stderr, out)
	}

	permalink := c1[strings.Index(c1, "](")+2 : strings.Index(c1, ") · ")]
	out, _, code = f.verify(permalink)
	// A permalink carries no hash: it is never ok (nothing says which
	// bytes it meant), and the lines it names are shown with theirs.
	noID := strings.TrimSuffix(c1, " · registry-order")
	bare := noID[:strings.Index(noID, " · ")]
	if code != 1 || out != "error "+bare+": the citation has no SHA-256 to check the lines against; the lines are "+noID+"\n0 ok, 0 moved, 0 changed, 1 error(s)\n" {
		t.Errorf("bare permalink: exit %d\n%s", code, out)
	}
	if out, _, code := f.verify(bare); code != 1 || !strings.HasPrefix(out, "error "+bare+": the citation has no SHA-256") {
		t.Errorf("citation without its hash: exit %d\n%s", code, out)
	}

	build := filepath.Join(tmp, "site")
	if _, stderr, code := kf(append(append([]string{"build"}, f.src()...), "--ref", "v0.1.0", "--out", build)...); code != 0 {
		t.Fatal(stderr)
	}
	doc := filepath.Join(build, "findings.json")
	out, stderr, code = f.verify(doc)
	if code != 0 || strings.Count(out, "ok  ") != 6 || !strings.Contains(stderr, "never-there is missing") {
		t.Errorf("findings.json: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	// The site's own findings.md carries each located record's citation
	// in the cite format, so a reviewer can verify what they pasted.
	out, stderr, code = f.verify(filepath.Join(build, "findings.md"))
	if code != 0 || strings.Count(out, "ok  ") != 6 || strings.Count(out, "\n") != 7 {
		t.Errorf("findings.md: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	out, _, code = f.verify("--ref", "v0.2.0", doc)
	if code != 1 || strings.Count(out, "ok  ") != 2 || strings.Count(out, "moved ") != 1 || strings.Count(out, "changed ") != 3 {
		t.Errorf("findings.json --ref v0.2.0: exit %d\n%s", code, out)
	}

	// A findings.json is checked against the full sha256 and the excerpt.
	for _, tamper := range []struct{ name, field string }{{"sha256", "sha256"}, {"excerpt", "excerpt"}} {
		t.Run("tampered "+tamper.name, func(t *testing.T) {
			data, err := os.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
			var raw map[string]any
			if err := json.Unmarshal(data, &raw); err != nil {
				t.Fatal(err)
			}
			rec := raw["findings"].([]any)[0].(map[string]any)
			v := rec[tamper.field].(string)
			if tamper.field == "sha256" {
				// Past the 12 digits a citation shows.
				v = v[:40] + strings.Map(func(r rune) rune {
					if r == '0' {
						return '1'
					}
					return '0'
				}, v[40:])
			} else {
				v = strings.Replace(v, "You", "Thou", 1)
			}
			rec[tamper.field] = v
			data, _ = json.Marshal(raw)
			file := filepath.Join(t.TempDir(), "findings.json")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			out, _, code := f.verify(file)
			if code != 1 || !strings.HasPrefix(out, "changed ") {
				t.Errorf("exit %d\n%s", code, out)
			}
		})
	}

	unknown := strings.ReplaceAll(c1, f.commits[0], strings.Repeat("ab", 20))
	unknown = strings.Replace(unknown, "@"+f.commits[0][:7], "@abababa", 1)
	out, _, code = f.verify(unknown)
	if code != 1 || out != "error "+unknown+": commit abababa is not in this repository; fetch it, or point --repo at a clone that has it\n0 ok, 0 moved, 0 changed, 1 error(s)\n" {
		t.Errorf("unknown commit: exit %d\n%s", code, out)
	}

	for _, bad := range []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"no inputs", nil, 2, "want a findings.json"},
		{"not a citation", []string{"not-a-file.md"}, 2, "no such file, and not a citation"},
		{"inconsistent citation", []string{strings.Replace(c1, "L3–5", "L3–6", 1)}, 2, "lines 3–6 but its permalink 3–5"},
		{"markdown without citations", []string{filepath.Join(fixtureDir, "defs", "registry-order.yaml")}, 1, "no citations"},
	} {
		t.Run(bad.name, func(t *testing.T) {
			_, stderr, code := f.verify(bad.args...)
			if code != bad.code || !strings.Contains(stderr, bad.err) {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, stderr, bad.code, bad.err)
			}
			oneLineErr(t, stderr)
		})
	}
}

// TestVerifyPlainDir: a citation without a commit is checked against the
// source as it is, or, with --ref, searched for in its own file.
func TestVerifyPlainDir(t *testing.T) {
	f := newFixture(t)
	dir := filepath.Join(fixtureDir, "history/1")
	out, _, _ := kf("cite", "--repo", dir, "--defs", fixtureDefs, "registry-order")
	c := strings.TrimSuffix(out, "\n")
	if out, stderr, code := kf("verify", "--repo", dir, c); code != 0 || out != "ok  "+c+"\n1 ok, 0 moved, 0 changed\n" {
		t.Errorf("plain dir: exit %d %s\n%s", code, stderr, out)
	}
	if out, _, code := kf("verify", "--repo", filepath.Join(fixtureDir, "history/2"), c); code != 1 || !strings.HasPrefix(out, "changed ") {
		t.Errorf("plain dir, other tree: exit %d\n%s", code, out)
	}
	out, stderr, code := f.verify("--ref", "v0.2.0", c)
	want := "moved " + c + " → [src/tool/registry.ts L5–7 @" + f.commits[1][:7] + "]"
	if code != 1 || !strings.HasPrefix(out, want) {
		t.Errorf("plain-dir citation against a ref: exit %d %s\n got %s\nwant %s…", code, stderr, out, want)
	}
	// A citation at a commit cannot be checked in a plain directory.
	cc := f.cite(t, "registry-order", "v0.1.0")
	out, _, code = kf("verify", "--repo", dir, "--quiet", cc)
	want = "error " + cc + ": the citation names commit " + f.commits[0][:7] + " but " + dir + " is a plain directory; point --repo at a git repository\n"
	if code != 1 || !strings.HasPrefix(out, want) {
		t.Errorf("commit citation in a plain dir: exit %d\n got %s\nwant %s…", code, out, want)
	}
}

// TestVerifyRelocatesByID: with --ref, a citation that names its finding
// and whose bytes are gone is re-located by the finding's definition and
// given its new citation; one without the id (the older format) can only
// be reported changed.
func TestVerifyRelocatesByID(t *testing.T) {
	f := newFixture(t)
	limit := f.cite(t, "output-limit", "v0.1.0")
	now := f.cite(t, "output-limit", "v0.2.0")
	out, stderr, code := f.verify("--defs", fixtureDefs, "--ref", "v0.2.0", limit)
	want := "changed " + limit + " → " + now + ": finding output-limit is at v0.2.0 with other bytes (the cited lines are not in src/tool/truncate.ts or any other .ts/.tsx/.txt file at v0.2.0)\n0 ok, 0 moved, 1 changed\n"
	if code != 1 || out != want {
		t.Errorf("exit %d %s\n got %s\nwant %s", code, stderr, out, want)
	}
	old := strings.TrimSuffix(limit, " · output-limit")
	out, _, code = f.verify("--defs", fixtureDefs, "--ref", "v0.2.0", old)
	if code != 1 || strings.Contains(out, "→") || !strings.HasPrefix(out, "changed "+old+": the cited lines are not in") {
		t.Errorf("citation without an id: exit %d\n%s", code, out)
	}
	legacy := f.cite(t, "legacy-hook", "v0.1.0")
	out, _, code = f.verify("--defs", fixtureDefs, "--ref", "v0.2.0", legacy)
	if code != 1 || !strings.Contains(out, "; finding legacy-hook is missing at v0.2.0: file not found") {
		t.Errorf("finding gone at the ref: exit %d\n%s", code, out)
	}
}
