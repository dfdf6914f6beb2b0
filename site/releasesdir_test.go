package site

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readTree returns the files under dir by slash path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReleasesDirChangesFromLastRendered: a run keeps the release it
// rendered last for the changes page of the next (no reading back, no
// second route evaluation); the directory it writes is byte for byte the
// one written by runs that each put one release and so read the release
// before back from its findings.json.
func TestReleasesDirChangesFromLastRendered(t *testing.T) {
	cfg := readRoutes(t, "routes.yaml")
	order := func(a, b string) int { return strings.Compare(a, b) }
	rels := routeReleases(t)
	put := func(d *ReleasesDir, rel Release) {
		t.Helper()
		if err := d.Put(rel, "c-"+rel.Tag, ReleasesKey{Tool: "t", Catalog: "c", Repo: rel.Document.Source.Repo}); err != nil {
			t.Fatal(err)
		}
	}
	open := func(dir string) *ReleasesDir {
		t.Helper()
		d, _, err := OpenReleasesDir(dir, false, order, Options{Routes: cfg})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	tags := []string{rels[0].Tag, rels[1].Tag, rels[2].Tag}

	oneRun := filepath.Join(t.TempDir(), "one")
	d := open(oneRun)
	d.Plan(tags, false)
	for _, rel := range rels {
		put(d, rel)
		if d.last == nil || d.last.tag != rel.Tag {
			t.Fatalf("after putting %s the release kept is %+v", rel.Tag, d.last)
		}
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}

	runEach := filepath.Join(t.TempDir(), "each")
	for _, rel := range routeReleases(t) {
		d := open(runEach)
		d.Plan(tags, false)
		put(d, rel)
		if err := d.Finish(); err != nil {
			t.Fatal(err)
		}
	}

	a, b := readTree(t, oneRun), readTree(t, runEach)
	if _, ok := a["v1.2.0/"+changesFile]; !ok {
		t.Fatalf("no %s for v1.2.0 in %v", changesFile, a)
	}
	for name, data := range a {
		if b[name] != data {
			t.Errorf("%s differs between one run and a run per release", name)
		}
	}
	if len(a) != len(b) {
		t.Errorf("%d files in one run, %d with a run per release", len(a), len(b))
	}
}
