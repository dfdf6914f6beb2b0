package source

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/gittest"
)

// blobOf is a blob whose header gives size and whose stream holds data.
func blobOf(t *testing.T, size int64, data []byte) *object.Blob {
	t.Helper()
	obj := &plumbing.MemoryObject{}
	obj.SetType(plumbing.BlobObject)
	if _, err := obj.Write(data); err != nil {
		t.Fatal(err)
	}
	obj.SetSize(size)
	b, err := object.DecodeBlob(obj)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBlobBytes(t *testing.T) {
	data := bytes.Repeat([]byte("export const x = 1\n"), 1000)
	got, err := BlobBytes(blobOf(t, int64(len(data)), data))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("BlobBytes = %d bytes, %v; want the blob's %d bytes", len(got), err, len(data))
	}
	if cap(got) != len(data) {
		t.Errorf("buffer capacity %d, want exactly the %d bytes read", cap(got), len(data))
	}
	if got, err := BlobBytes(blobOf(t, 0, nil)); err != nil || len(got) != 0 {
		t.Errorf("empty blob: %q, %v", got, err)
	}
	// A header that disagrees with the stream is a damaged object.
	if _, err := BlobBytes(blobOf(t, 10, []byte("short"))); err == nil {
		t.Error("a stream shorter than the header: no error")
	}
	if _, err := BlobBytes(blobOf(t, 2, []byte("longer"))); err == nil {
		t.Error("a stream longer than the header: no error")
	}
	var tl *TooLargeError
	if _, err := BlobBytes(blobOf(t, MaxBlobSize+1, nil)); !errors.As(err, &tl) {
		t.Errorf("a blob over MaxBlobSize: %v, want *TooLargeError", err)
	}
}

// A blob the pack reader decoded is read without a copy, whole, and
// appending to it cannot write into what the reader's cache holds; a
// repository without that reader (go-git's own storage) is read as
// BlobBytes reads.
func TestReadBlobShared(t *testing.T) {
	r := gittest.New(t)
	want := bytes.Repeat([]byte("export const y = 2\n"), 300)
	r.Write("a.ts", want)
	r.Commit("a")
	if err := r.Repo.RepackObjects(&git.RepackConfig{}); err != nil {
		t.Fatal(err)
	}
	src, _, err := openAt(t, Options{Repo: r.Dir, Pin: findings.Pin{Repo: "https://github.com/anomalyco/opencode"}}, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	repo, err := src.Repository()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := repo.Storer.(*packStorage); !ok {
		t.Fatalf("the repository reads through %T, not the pack reader", repo.Storer)
	}
	h := plumbing.ComputeHash(plumbing.BlobObject, want)
	got, err := ReadBlob(repo, h)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ReadBlob = %d bytes, %v; want the blob's %d", len(got), err, len(want))
	}
	if cap(got) != len(got) {
		t.Errorf("capacity %d past the %d bytes: an append would write into the shared bytes", cap(got), len(got))
	}
	_ = append(got, '!')
	again, err := ReadBlob(repo, h)
	if err != nil || !bytes.Equal(again, want) {
		t.Fatalf("after an append, ReadBlob = %q…, %v", again[:min(20, len(again))], err)
	}
	direct, err := ReadBlob(r.Repo, h)
	if err != nil || !bytes.Equal(direct, want) {
		t.Fatalf("through go-git's storage: %d bytes, %v", len(direct), err)
	}
	if _, err := ReadBlob(repo, plumbing.NewHash(strings.Repeat("ab", 20))); !errors.Is(err, plumbing.ErrObjectNotFound) {
		t.Errorf("a missing blob: %v, want ErrObjectNotFound", err)
	}
}
