package site

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
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

// TestReleasesDirFlushShare: while releases are being put, the top-level
// files wait longer after a flush that took long (their rendering grows
// with the number of releases), and Finish writes them all the same.
func TestReleasesDirFlushShare(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	d, _, err := OpenReleasesDir(dir, false, strings.Compare, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rels := seriesReleases(t)[:3]
	key := ReleasesKey{Tool: "t", Catalog: "c"}
	if err := d.Put(rels[0], "c0", key); err != nil {
		t.Fatal(err)
	}
	listed := func() bool {
		m, _, err := ReadReleasesManifest(dir)
		if err != nil || m == nil {
			t.Fatalf("manifest: %v", err)
		}
		return len(m.Releases) == len(d.rels)
	}
	// Past flushEvery since the last flush, which was quick: this Put flushes.
	d.flushed, d.flushCost = time.Now().Add(-flushEvery), time.Millisecond
	if err := d.Put(rels[1], "c1", key); err != nil {
		t.Fatal(err)
	}
	if !listed() {
		t.Fatal("a Put past flushEvery after a quick flush did not write the manifest")
	}
	// As long since the last flush, but that one took a second: not yet.
	d.flushed, d.flushCost = time.Now().Add(-flushEvery), time.Second
	if err := d.Put(rels[2], "c2", key); err != nil {
		t.Fatal(err)
	}
	if listed() {
		t.Errorf("a Put %v after a flush that took 1s wrote the top-level files; want them to wait %v", flushEvery, flushInterval(time.Second))
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	if !listed() {
		t.Error("Finish did not write the manifest")
	}
}

// TestReleasesDirSharesSummaries: a record that does not change from one
// release to the next is held once, not once a release (the summaries
// are what a directory holds of every release).
func TestReleasesDirSharesSummaries(t *testing.T) {
	d, _, err := OpenReleasesDir(filepath.Join(t.TempDir(), "out"), false, strings.Compare, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, rel := range seriesReleases(t)[:2] {
		if err := d.Put(rel, "c"+strconv.Itoa(i), ReleasesKey{Tool: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	shared := 0
	for _, s := range d.rels[1].entry.Records {
		p := recordOf(d.rels[0].entry.Records, s.ID)
		if p == nil || *p != s {
			continue
		}
		if unsafe.StringData(p.Title) != unsafe.StringData(s.Title) {
			t.Errorf("record %s: the same summary at both releases holds its own strings", s.ID)
		}
		shared++
	}
	if shared == 0 {
		t.Fatal("no record is the same at both releases")
	}
}
