package source

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/keyfindings/keyfindings/internal/gittest"
)

// indexBytes writes a version 2 pack index of objects (id → offset) as
// git lays it out; offsets of 2 GiB and more go to the 64-bit table.
func indexBytes(objects map[plumbing.Hash]int64) []byte {
	ids := make([]plumbing.Hash, 0, len(objects))
	for h := range objects {
		ids = append(ids, h)
	}
	sort.Slice(ids, func(i, j int) bool { return bytes.Compare(ids[i][:], ids[j][:]) < 0 })
	var b bytes.Buffer
	b.Write(packIndexHeader)
	for c := 0; c < 256; c++ {
		n := sort.Search(len(ids), func(i int) bool { return int(ids[i][0]) > c })
		binary.Write(&b, binary.BigEndian, uint32(n))
	}
	for _, h := range ids {
		b.Write(h[:])
	}
	b.Write(make([]byte, 4*len(ids))) // CRCs
	var large []int64
	for _, h := range ids {
		off := objects[h]
		if off < 1<<31 {
			binary.Write(&b, binary.BigEndian, uint32(off))
			continue
		}
		binary.Write(&b, binary.BigEndian, 0x80000000|uint32(len(large)))
		large = append(large, off)
	}
	for _, off := range large {
		binary.Write(&b, binary.BigEndian, uint64(off))
	}
	b.Write(make([]byte, 40)) // pack and index checksums
	return b.Bytes()
}

// The index finds every object it lists at its offset, 64-bit offsets
// included, and no other; a file that is not a whole version 2 index is
// refused, so that its pack is left to go-git.
func TestPackIndex(t *testing.T) {
	objects := map[plumbing.Hash]int64{}
	for i := 0; i < 300; i++ {
		var h plumbing.Hash
		h[0], h[1], h[19] = byte(i*37), byte(i), byte(i>>8)
		objects[h] = int64(12 + 100*i)
	}
	var big plumbing.Hash
	big[0], big[5] = 0xff, 1
	objects[big] = 5 << 30
	var first plumbing.Hash // id 00…00
	objects[first] = 7
	data := indexBytes(objects)
	x, err := parsePackIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	if x.n != len(objects) {
		t.Errorf("n = %d, want %d", x.n, len(objects))
	}
	for h, want := range objects {
		if got, ok := x.find(h); !ok || got != want {
			t.Errorf("%s: offset %d %v, want %d", h, got, ok, want)
		}
	}
	for _, h := range []plumbing.Hash{{0x01}, {0xff, 0xff}, {0x25, 0x01, 0x02}} {
		if _, listed := objects[h]; listed {
			continue
		}
		if off, ok := x.find(h); ok {
			t.Errorf("%s is not listed but found at %d", h, off)
		}
	}

	bad := map[string][]byte{
		"empty":     nil,
		"version 1": append([]byte{0xff, 't', 'O', 'c', 0, 0, 0, 1}, data[8:]...),
		"cut short": data[:len(data)-50],
	}
	unsorted := bytes.Clone(data)
	binary.BigEndian.PutUint32(unsorted[8+4*10:], 1<<30) // fan-out decreases after this
	bad["fan-out decreasing"] = unsorted
	// A count near 2^32 in the last fan-out entry: the tables it implies
	// are far larger than the file (sizes computed without wrapping).
	huge := bytes.Clone(data)
	for b := 0; b < 256; b++ {
		binary.BigEndian.PutUint32(huge[8+4*b:], 0xffffffff)
	}
	bad["count near 2^32"] = huge
	for name, b := range bad {
		if _, err := parsePackIndex(b); !errors.Is(err, errPackIndex) {
			t.Errorf("%s: %v, want errPackIndex", name, err)
		}
	}
}

// TestPackMismatch: a pack whose trailing checksum is not the one its
// index names is not read through the index (its offsets may be another
// pack's); objects still read, through go-git.
func TestPackMismatch(t *testing.T) {
	r := gittest.New(t)
	r.Write("a.txt", []byte("hello\n"))
	commit := r.Commit("one")
	if err := r.Repo.RepackObjects(&git.RepackConfig{}); err != nil {
		t.Fatal(err)
	}
	packs, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs %v, want one", packs)
	}
	o := NewObjects(r.Repo)
	if len(o.packs) != 1 {
		t.Fatalf("a matching pack: %d packs opened, want 1", len(o.packs))
	}
	o.Close()

	data, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 0xff
	if err := os.WriteFile(packs[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	repo, err := git.PlainOpen(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	o = NewObjects(repo)
	defer o.Close()
	if len(o.packs) != 0 {
		t.Errorf("a pack whose checksum differs from its index's: %d packs opened, want 0", len(o.packs))
	}
	if _, err := o.ReadCommitHeader(plumbing.NewHash(commit)); err != nil {
		t.Errorf("the commit no longer reads: %v", err)
	}
}
