package source

import (
	"bytes"
	"errors"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
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
