package source

import (
	"bytes"
	"compress/zlib"
	"container/list"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Objects reads the bytes of git objects from a repository's pack files
// directly, for walks that read each of tens of thousands of commits and
// trees once (keyfindings log). go-git decodes the same objects, but it
// hashes every object it decodes to cache it by id and reads the pack
// through seeks and short reads; here a decoded object is cached by its
// place in the pack (for the deltas based on it), and one positioned read
// brings in a small object whole. Objects outside the pack files (loose
// objects, alternates) and repositories not on a filesystem are read
// through go-git.
//
// An Objects is not safe for concurrent use. The bytes it returns are
// shared with its cache: callers must not modify them.
type Objects struct {
	// store reads what the pack files do not hold.
	store storer.EncodedObjectStorer
	packs []*pack
	cache objectCache
	rd    packReader
	zr    io.ReadCloser
}

// pack is one pack file and its index.
type pack struct {
	idx  *packIndex
	file billy.File
	size int64
}

// NewObjects returns a reader of repo's objects. A pack it cannot open is
// left to go-git. Close releases the pack files.
func NewObjects(repo *git.Repository) *Objects {
	switch st := repo.Storer.(type) {
	case *packStorage:
		return newObjects(st.Storage)
	case *filesystem.Storage:
		return newObjects(st)
	}
	return &Objects{store: repo.Storer, cache: newObjectCache()}
}

func newObjectCache() objectCache {
	return objectCache{max: objectCacheBytes, at: map[objectPlace]*list.Element{}}
}

// newObjects returns a reader of the objects of st.
func newObjects(st *filesystem.Storage) *Objects {
	o := &Objects{store: st, cache: newObjectCache()}
	hashes, err := st.ObjectPacks()
	if err != nil {
		return o
	}
	for _, h := range hashes {
		if p, err := openPack(st.Filesystem(), h); err == nil {
			o.packs = append(o.packs, p)
		}
	}
	return o
}

// errPackMismatch is a pack file whose trailing checksum is not the one
// its index names.
var errPackMismatch = errors.New("pack file does not match its index")

// openPack opens pack h of the repository whose git directory is fs.
func openPack(fs billy.Filesystem, h plumbing.Hash) (*pack, error) {
	name := path.Join("objects", "pack", "pack-"+h.String())
	idx, err := readPackIndex(fs, name+".idx")
	if err != nil {
		return nil, err
	}
	f, err := fs.Open(name + ".pack")
	if err != nil {
		return nil, err
	}
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		f.Close()
		return nil, err
	}
	// An index names its pack by the pack's trailing checksum: one that
	// does not match (a pack replaced under its index, a file cut short)
	// is left to go-git rather than read at offsets meant for another.
	var sum [20]byte
	if size < 20 {
		f.Close()
		return nil, errPackMismatch
	}
	if _, err := f.ReadAt(sum[:], size-20); err != nil {
		f.Close()
		return nil, err
	}
	if !bytes.Equal(sum[:], idx.packChecksum()) {
		f.Close()
		return nil, errPackMismatch
	}
	return &pack{idx: idx, file: f, size: size}, nil
}

// Close closes the pack files.
func (o *Objects) Close() error {
	var errs []error
	for _, p := range o.packs {
		errs = append(errs, p.file.Close())
	}
	o.packs = nil
	return errors.Join(errs...)
}

// objectCacheBytes bounds the decoded objects kept for the deltas based
// on them, by the memory they hold (their capacity, which go-git's delta
// patching may round up past their size). A tree is rarely more than a
// few KiB: on opencode's history a log takes the same CPU with 4 MiB as
// with 16, and less memory. A log has two readers, each with its cache
// (its walk's and its snapshots').
const objectCacheBytes = 8 << 20

// Read returns the bytes of object h, which must be of type want:
// plumbing.ErrObjectNotFound when the repository holds no such object of
// that type, as go-git answers.
func (o *Objects) Read(h plumbing.Hash, want plumbing.ObjectType) ([]byte, error) {
	typ, data, err := o.read(h)
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", want, h, err)
	}
	if typ != want {
		return nil, fmt.Errorf("read %s %s: %w", want, h, plumbing.ErrObjectNotFound)
	}
	return data, nil
}

// read returns object h of any type.
func (o *Objects) read(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	for _, p := range o.packs {
		if off, ok := p.idx.find(h); ok {
			return o.at(p, off, 0)
		}
	}
	obj, err := o.store.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return 0, nil, err
	}
	rd, err := obj.Reader()
	if err != nil {
		return 0, nil, err
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	return obj.Type(), data, err
}

// maxDeltaDepth bounds a chain of deltas (git makes none deeper than
// 4095), so a damaged pack cannot recurse without end.
const maxDeltaDepth = 10000

// at decodes the object at offset off of p: its header, its compressed
// bytes, and, for a delta, the object it is based on (depth deltas deep).
func (o *Objects) at(p *pack, off int64, depth int) (plumbing.ObjectType, []byte, error) {
	key := objectPlace{p, off}
	if typ, data, ok := o.cache.get(key); ok {
		return typ, data, nil
	}
	if depth > maxDeltaDepth {
		return 0, nil, fmt.Errorf("pack offset %d: a chain of more than %d deltas", off, maxDeltaDepth)
	}
	o.rd.reset(p, off)
	typ, size, err := o.rd.header()
	if err != nil {
		return 0, nil, fmt.Errorf("pack offset %d: %w", off, err)
	}
	var baseOff int64
	var baseID plumbing.Hash
	switch typ {
	case plumbing.OFSDeltaObject:
		rel, err := o.rd.offset()
		if err != nil || rel <= 0 || rel > off {
			return 0, nil, fmt.Errorf("pack offset %d: bad delta base offset", off)
		}
		baseOff = off - rel
	case plumbing.REFDeltaObject:
		if _, err := io.ReadFull(&o.rd, baseID[:]); err != nil {
			return 0, nil, fmt.Errorf("pack offset %d: %w", off, err)
		}
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
	default:
		return 0, nil, fmt.Errorf("pack offset %d: unknown object type %d", off, typ)
	}
	data, err := o.inflate(size)
	if err != nil {
		return 0, nil, fmt.Errorf("pack offset %d: %w", off, err)
	}
	if typ.IsDelta() {
		var base []byte
		if typ == plumbing.OFSDeltaObject {
			typ, base, err = o.at(p, baseOff, depth+1)
		} else if boff, ok := p.idx.find(baseID); ok {
			typ, base, err = o.at(p, boff, depth+1)
		} else {
			typ, base, err = o.read(baseID)
		}
		if err != nil {
			return 0, nil, err
		}
		if data, err = packfile.PatchDelta(base, data); err != nil {
			return 0, nil, fmt.Errorf("pack offset %d: %w", off, err)
		}
	}
	o.cache.put(key, typ, data)
	return typ, data, nil
}

// maxObjectSize bounds what Objects inflates: commits and trees, and
// the objects their deltas are based on, are far smaller; a larger size
// is a damaged header, refused before it is allocated.
const maxObjectSize = 8 * MaxBlobSize

// inflate reads size bytes of zlib data from the reader's position.
func (o *Objects) inflate(size int64) ([]byte, error) {
	if o.zr == nil {
		zr, err := zlib.NewReader(&o.rd)
		if err != nil {
			return nil, err
		}
		o.zr = zr
	} else if err := o.zr.(zlib.Resetter).Reset(&o.rd, nil); err != nil {
		return nil, err
	}
	if size < 0 || size > maxObjectSize {
		return nil, fmt.Errorf("object of %d bytes, over the %d read here", size, maxObjectSize)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(o.zr, data); err != nil {
		return nil, err
	}
	return data, nil
}

// packReader reads a pack file from an offset, through a buffer filled by
// positioned reads. It is an io.ByteReader, so that the decompressor reads
// no further than the object.
type packReader struct {
	p    *pack
	pos  int64 // the file offset just past buf[:w]
	buf  []byte
	r, w int
}

// packChunk is how much one read brings in: most commits and trees (or
// their deltas) fit whole.
const packChunk = 4096

// reset positions the reader at off in p. When the buffer holds off
// already (the last read of the same pack brought it in), it is read from
// there: git packs the commits of a history next to one another, newest
// first, so a walk down the history reads most commit headers without a
// system call.
func (b *packReader) reset(p *pack, off int64) {
	if b.buf == nil {
		b.buf = make([]byte, packChunk)
	}
	if start := b.pos - int64(b.w); b.p == p && off >= start && off < b.pos {
		b.r = int(off - start)
		return
	}
	b.p, b.pos, b.r, b.w = p, off, 0, 0
}

func (b *packReader) fill() error {
	if b.pos >= b.p.size {
		return io.ErrUnexpectedEOF
	}
	n, err := b.p.file.ReadAt(b.buf, b.pos)
	if n == 0 {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	b.pos += int64(n)
	b.r, b.w = 0, n
	return nil
}

// ReadByte implements io.ByteReader.
func (b *packReader) ReadByte() (byte, error) {
	if b.r == b.w {
		if err := b.fill(); err != nil {
			return 0, err
		}
	}
	c := b.buf[b.r]
	b.r++
	return c, nil
}

// Read implements io.Reader.
func (b *packReader) Read(p []byte) (int, error) {
	if b.r == b.w {
		if err := b.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, b.buf[b.r:b.w])
	b.r += n
	return n, nil
}

// header reads an object's type and size (pack format: 3 type bits and a
// little-endian base-128 size).
func (b *packReader) header() (plumbing.ObjectType, int64, error) {
	c, err := b.ReadByte()
	if err != nil {
		return 0, 0, err
	}
	typ := plumbing.ObjectType((c >> 4) & 7)
	size := int64(c & 15)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if shift > 56 {
			return 0, 0, errors.New("object size too large")
		}
		if c, err = b.ReadByte(); err != nil {
			return 0, 0, err
		}
		size |= int64(c&0x7f) << shift
	}
	return typ, size, nil
}

// offset reads an OFS_DELTA's base distance (pack format: big-endian
// base-128 with an offset added at each continuation).
func (b *packReader) offset() (int64, error) {
	c, err := b.ReadByte()
	if err != nil {
		return 0, err
	}
	v := int64(c & 0x7f)
	for c&0x80 != 0 {
		if v >= 1<<55 {
			return 0, errors.New("delta base offset too large")
		}
		if c, err = b.ReadByte(); err != nil {
			return 0, err
		}
		v = (v+1)<<7 | int64(c&0x7f)
	}
	return v, nil
}

// objectPlace is where an object is stored: a pack and an offset.
type objectPlace struct {
	p   *pack
	off int64
}

// objectCache keeps decoded objects by place, the least recently used
// dropped first beyond max bytes.
type objectCache struct {
	max, bytes int
	order      list.List // of *cachedObject, most recent first
	at         map[objectPlace]*list.Element
}

type cachedObject struct {
	key  objectPlace
	typ  plumbing.ObjectType
	data []byte
}

func (c *objectCache) get(k objectPlace) (plumbing.ObjectType, []byte, bool) {
	e, ok := c.at[k]
	if !ok {
		return 0, nil, false
	}
	c.order.MoveToFront(e)
	co := e.Value.(*cachedObject)
	return co.typ, co.data, true
}

func (c *objectCache) put(k objectPlace, typ plumbing.ObjectType, data []byte) {
	if len(data) > c.max/4 {
		return
	}
	c.at[k] = c.order.PushFront(&cachedObject{key: k, typ: typ, data: data})
	c.bytes += cap(data)
	for c.bytes > c.max {
		old := c.order.Remove(c.order.Back()).(*cachedObject)
		delete(c.at, old.key)
		c.bytes -= cap(old.data)
	}
}

// CommitHeader is what a walk needs of a commit: its tree, its parents and
// its committer time.
type CommitHeader struct {
	Tree      plumbing.Hash
	Parents   []plumbing.Hash
	Committed time.Time
}

// ReadCommitHeader reads commit h's tree, parents and committer time,
// without decoding the rest of it.
func (o *Objects) ReadCommitHeader(h plumbing.Hash) (CommitHeader, error) {
	data, err := o.Read(h, plumbing.CommitObject)
	if err != nil {
		return CommitHeader{}, err
	}
	ch, ok := parseCommitHeader(data)
	if !ok {
		// Not in the form git writes: let go-git decode it.
		c, err := object.GetCommit(o.store, h)
		if err != nil {
			return CommitHeader{}, err
		}
		return CommitHeader{Tree: c.TreeHash, Parents: c.ParentHashes, Committed: c.Committer.When}, nil
	}
	return ch, nil
}

// parseCommitHeader reads the tree, parent and committer lines of a
// commit's encoding; ok is false unless it finds a tree and a committer
// time in the form git writes them.
func parseCommitHeader(data []byte) (ch CommitHeader, ok bool) {
	var tree, committer bool
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) == 0 {
			break
		}
		key, val, _ := bytes.Cut(line, []byte{' '})
		switch string(key) {
		case "tree":
			h, good := parseHash(val)
			if !good || tree {
				return ch, false
			}
			ch.Tree, tree = h, true
		case "parent":
			h, good := parseHash(val)
			if !good {
				return ch, false
			}
			ch.Parents = append(ch.Parents, h)
		case "committer":
			t, good := signatureTime(val)
			if !good || committer {
				return ch, false
			}
			ch.Committed, committer = t, true
		}
	}
	return ch, tree && committer
}

func parseHash(b []byte) (plumbing.Hash, bool) {
	if len(b) != 40 || !allHex(string(b)) {
		return plumbing.Hash{}, false
	}
	return plumbing.NewHash(string(b)), true
}

// signatureTime reads the time of "Name <email> SECONDS ±HHMM".
func signatureTime(b []byte) (time.Time, bool) {
	gt := bytes.LastIndexByte(b, '>')
	if gt < 0 {
		return time.Time{}, false
	}
	f := bytes.Fields(b[gt+1:])
	if len(f) != 2 || len(f[1]) != 5 {
		return time.Time{}, false
	}
	sec, err := strconv.ParseInt(string(f[0]), 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	tz, err := strconv.Atoi(string(f[1][1:]))
	if err != nil || f[1][0] != '+' && f[1][0] != '-' {
		return time.Time{}, false
	}
	off := (tz/100*60 + tz%100) * 60
	if f[1][0] == '-' {
		off = -off
	}
	return time.Unix(sec, 0).In(time.FixedZone("", off)), true
}
