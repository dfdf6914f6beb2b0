package source

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"sort"
	"sync"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// packIndex is a pack's index file (version 2), looked up where it lies
// in memory. go-git decodes an index whole into its own tables first,
// which for a history of a quarter of a million objects costs tens of
// milliseconds on every open: more than a log of one finding spends
// reading the commits it needs.
type packIndex struct {
	data []byte
	// n is the number of objects; names, offsets and large are where
	// their ids, their 31-bit offsets and the 64-bit offsets begin.
	n, names, offsets, large int
}

// errPackIndex is an index file this reader does not take (not version
// 2, or cut short); the pack is then left to go-git.
var errPackIndex = errors.New("not a version 2 pack index")

var packIndexHeader = []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}

// parsePackIndex checks data's header, fan-out table and size.
func parsePackIndex(data []byte) (*packIndex, error) {
	const fanout = 8
	if len(data) < fanout+256*4 || !bytes.Equal(data[:fanout], packIndexHeader) {
		return nil, errPackIndex
	}
	prev := uint32(0)
	for b := 0; b < 256; b++ {
		c := binary.BigEndian.Uint32(data[fanout+4*b:])
		if c < prev {
			return nil, errPackIndex
		}
		prev = c
	}
	// Sizes in uint64: a count near 2^32 must not wrap int where it is 32
	// bits wide and pass the size check.
	names := uint64(fanout + 256*4)
	offsets := names + (20+4)*uint64(prev) // the CRCs lie between
	large := offsets + 4*uint64(prev)
	if large+2*20 > uint64(len(data)) { // two trailing checksums
		return nil, errPackIndex
	}
	return &packIndex{data: data, n: int(prev), names: int(names), offsets: int(offsets), large: int(large)}, nil
}

// packChecksum is the checksum of the pack the index describes: the pack
// file ends with the same 20 bytes.
func (x *packIndex) packChecksum() []byte {
	return x.data[len(x.data)-40 : len(x.data)-20]
}

// packIndexes are the pack indexes read so far, by file: a pack and its
// index never change once written (they are named by their content), so
// the readers of one run (the log's walk, the snapshots' history, go-git's
// storage) share one copy.
var packIndexes struct {
	sync.Mutex
	by map[string]*packIndex
}

// readPackIndex reads and checks the index file name of fs.
func readPackIndex(fs billy.Filesystem, name string) (*packIndex, error) {
	key := fs.Join(fs.Root(), name)
	packIndexes.Lock()
	defer packIndexes.Unlock()
	if x := packIndexes.by[key]; x != nil {
		return x, nil
	}
	f, err := fs.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	x, err := parsePackIndex(data)
	if err != nil {
		return nil, err
	}
	if packIndexes.by == nil {
		packIndexes.by = map[string]*packIndex{}
	}
	packIndexes.by[key] = x
	return x, nil
}

// count is how many objects up to those whose id begins with byte b.
func (x *packIndex) count(b int) int {
	return int(binary.BigEndian.Uint32(x.data[8+4*b:]))
}

func (x *packIndex) name(i int) []byte { return x.data[x.names+20*i : x.names+20*i+20] }

// offset is the place in the pack of the object listed i-th; false when
// the index names a 64-bit offset it does not hold.
func (x *packIndex) offset(i int) (int64, bool) {
	off := binary.BigEndian.Uint32(x.data[x.offsets+4*i:])
	if off&0x80000000 == 0 {
		return int64(off), true
	}
	at := uint64(x.large) + 8*uint64(off&0x7fffffff)
	if at+8 > uint64(len(x.data)-2*20) {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(x.data[at:])), true
}

// find returns the place in the pack of object h.
func (x *packIndex) find(h plumbing.Hash) (int64, bool) {
	lo := 0
	if h[0] > 0 {
		lo = x.count(int(h[0]) - 1)
	}
	hi := x.count(int(h[0]))
	i := lo + sort.Search(hi-lo, func(i int) bool { return bytes.Compare(x.name(lo+i), h[:]) >= 0 })
	if i >= hi || !bytes.Equal(x.name(i), h[:]) {
		return 0, false
	}
	return x.offset(i)
}
