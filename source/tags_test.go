package source

import (
	"context"
	"slices"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/gittest"
)

func TestTags(t *testing.T) {
	r := gittest.New(t)
	r.Write("a.ts", []byte("export const a = 1\n"))
	r.Commit("one")
	r.Tag("v0.1.0")
	r.Write("a.ts", []byte("export const a = 2\n"))
	r.Commit("two")
	r.Tag("v0.2.0")
	r.Tag("nightly")

	want := []string{"nightly", "v0.1.0", "v0.2.0"}
	local, err := Open(context.Background(), Options{Repo: r.Dir, Pin: findings.DefaultPin()})
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	got, err := local.Tags(context.Background())
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("local Tags = %v, %v; want %v", got, err, want)
	}

	fetchFileURLs(t)
	fetched, err := Open(context.Background(), Options{Repo: "file://" + r.Dir, Ref: "v0.1.0", CacheDir: t.TempDir(), Pin: findings.DefaultPin()})
	if err != nil {
		t.Fatal(err)
	}
	defer fetched.Close()
	got, err = fetched.Tags(context.Background())
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("remote Tags = %v, %v; want %v", got, err, want)
	}
	// A tag the first fetch did not bring is fetched on demand.
	at, err := fetched.At(context.Background(), "v0.2.0")
	if err != nil {
		t.Fatal(err)
	}
	if f, err := at.Snapshot.ReadFile("a.ts"); err != nil || string(f.Data) != "export const a = 2\n" {
		t.Errorf("a.ts at v0.2.0 = %v, %v", f, err)
	}

}
