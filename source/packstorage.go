package source

import (
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// packStorage is a repository's storage whose objects go-git reads
// through Objects: go-git's own reader decodes every pack index whole on
// first use (tens of milliseconds for opencode's quarter of a million
// objects, on every run) and hashes each object it decodes to cache it
// by id. References are looked up in the packed-refs file as read once
// (see Reference). Everything else (configuration, loose objects,
// iteration) is the filesystem storage's.
type packStorage struct {
	*filesystem.Storage
	mu   sync.Mutex
	objs *Objects
	// refsMu guards packed, the packed references as last read (see
	// Reference).
	refsMu sync.Mutex
	packed *packedRefs
}

func newPackStorage(st *filesystem.Storage) *packStorage {
	return &packStorage{Storage: st, objs: newObjects(st)}
}

// EncodedObject reads object h, which must be of type t unless t is
// plumbing.AnyObject (plumbing.ErrObjectNotFound otherwise, as go-git
// answers).
func (s *packStorage) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	s.mu.Lock()
	typ, data, err := s.objs.read(h)
	s.mu.Unlock()
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return nil, err
	}
	if err != nil {
		// What Objects does not read (an object over the size it
		// inflates, a damaged pack) go-git reads or refuses as it
		// would without it, so callers get the errors they check for.
		return s.Storage.EncodedObject(t, h)
	}
	if t != plumbing.AnyObject && typ != t {
		return nil, plumbing.ErrObjectNotFound
	}
	return &packedObject{hash: h, typ: typ, data: data}, nil
}

// Close closes the pack files of both readers.
func (s *packStorage) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return errors.Join(s.objs.Close(), s.Storage.Close())
}

// packedObject is an object as Objects read it: its id is the one it was
// asked for (not hashed again), and its bytes are shared with Objects'
// cache, so it cannot be written.
type packedObject struct {
	hash plumbing.Hash
	typ  plumbing.ObjectType
	data []byte
}

var errReadOnlyObject = errors.New("a packed object cannot be written")

func (o *packedObject) Hash() plumbing.Hash             { return o.hash }
func (o *packedObject) Type() plumbing.ObjectType       { return o.typ }
func (o *packedObject) SetType(plumbing.ObjectType)     {}
func (o *packedObject) Size() int64                     { return int64(len(o.data)) }
func (o *packedObject) SetSize(int64)                   {}
func (o *packedObject) Writer() (io.WriteCloser, error) { return nil, errReadOnlyObject }
func (o *packedObject) Reader() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(o.data)), nil
}
