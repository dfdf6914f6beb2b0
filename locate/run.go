package locate

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/keyfindings/keyfindings/source"
)

// run is one Extract call: its snapshot, with each path looked up and read
// once for all definitions, the parse entries it holds, and the results of
// the one tree search its moved files need.
//
// Every call into the snapshot holds the Extractor's source lock: go-git's
// repository, tree and pack objects are not safe for concurrent use, and
// the snapshots of one ExtractMany share a repository. Reads are short;
// parsing and querying, the CPU work, run outside the lock.
type run struct {
	x    *Extractor
	snap source.Snapshot
	meta Meta

	mu    sync.Mutex
	paths map[string]*pathRead
	held  map[string]*cachedParse
	// hitFiles keeps the files of search hits, read during scan.
	hitFiles map[string]*source.File

	// search holds, for each shape whose files are all absent, the files
	// the tree search found.
	searchMu sync.Mutex
	search   map[*compiledShape]*searchResult
}

// pathRead is one path of the snapshot: what it holds, looked up and read
// at most once each.
type pathRead struct {
	lookupOnce sync.Once
	id         string
	lookupErr  error

	readOnce sync.Once
	file     *source.File
	readErr  error
}

// searchResult is what the tree search found for one definition.
type searchResult struct {
	// entries are the .ts/.tsx files whose bytes hold the definition's
	// anchors, in path order.
	entries []source.Entry
	// skipped are the names the walk could not list (Snapshot.Walk).
	skipped []string
	// id names entries (paths and blobs): a cached result of a search is
	// valid while the search finds the same files.
	id string
}

func (x *Extractor) newRun(snap source.Snapshot, meta Meta) *run {
	return &run{x: x, snap: snap, meta: meta, paths: map[string]*pathRead{}, held: map[string]*cachedParse{}, hitFiles: map[string]*source.File{}}
}

// close releases the parse entries the run held.
func (r *run) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.held {
		r.x.parses.release(e)
	}
	r.held = nil
}

func (r *run) path(p string) *pathRead {
	r.mu.Lock()
	defer r.mu.Unlock()
	pr, ok := r.paths[p]
	if !ok {
		pr = &pathRead{}
		r.paths[p] = pr
	}
	return pr
}

// readFile is the snapshot's ReadFile, once per path.
func (r *run) readFile(p string) (*source.File, error) {
	pr := r.path(p)
	pr.readOnce.Do(func() {
		r.x.src.Lock()
		defer r.x.src.Unlock()
		pr.file, pr.readErr = r.snap.ReadFile(p)
	})
	return pr.file, pr.readErr
}

// entryFinder is a snapshot that can say what a path holds without
// reading its bytes.
type entryFinder interface {
	// FindEntry returns a string that names the entry at p (its object id
	// and mode), "" when there is none.
	FindEntry(p string) (string, error)
}

// lookup names what p holds: "" when nothing; otherwise a string that
// changes whenever ReadFile's answer for p would. It is the input that
// keys cached results. Git trees answer without reading the blob; other
// snapshots read the file.
func (r *run) lookup(p string) (string, error) {
	pr := r.path(p)
	pr.lookupOnce.Do(func() {
		if fe, ok := r.snap.(entryFinder); ok {
			r.x.src.Lock()
			pr.id, pr.lookupErr = fe.FindEntry(p)
			r.x.src.Unlock()
			return
		}
		f, err := r.readFile(p)
		var tl *source.TooLargeError
		var sl *source.SymlinkError
		switch {
		case err == nil:
			pr.id = "blob " + f.Blob
		case errors.Is(err, source.ErrNotFound):
		case errors.As(err, &tl) || errors.As(err, &sl):
			pr.id = "error " + err.Error()
		default:
			pr.lookupErr = err
		}
	})
	return pr.id, pr.lookupErr
}

// parsed returns f's syntax tree for use by one goroutine, parsing the
// blob on its first use by any run in flight. The caller closes the file.
func (r *run) parsed(f *source.File) (*parsedFile, error) {
	if cachesOff.parseShare {
		return parseFile(f)
	}
	key := parseKey(f)
	r.mu.Lock()
	e, ok := r.held[key]
	if !ok {
		e = r.x.parses.acquire(f)
		r.held[key] = e
	}
	r.mu.Unlock()
	if err := r.x.parses.parse(e, f); err != nil {
		return nil, err
	}
	return e.view(f), nil
}

// isSource reports whether the tree search considers a path.
func isSource(p string) bool {
	return strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx")
}

// scan runs the tree search for every definition in defs at once: one walk
// of the tree, and each .ts/.tsx blob read at most once, only when the
// Extractor has not already seen whether that blob holds the anchors asked
// for. Blobs are filtered by bytes; nothing is parsed here.
func (r *run) scan(defs []*compiledShape) error {
	r.searchMu.Lock()
	defer r.searchMu.Unlock()
	return r.scanLocked(defs)
}

// searchFor returns the tree search's result for cd, searching now when
// scan did not.
func (r *run) searchFor(cd *compiledShape) (*searchResult, error) {
	r.searchMu.Lock()
	defer r.searchMu.Unlock()
	if s, ok := r.search[cd]; ok {
		return s, nil
	}
	if err := r.scanLocked([]*compiledShape{cd}); err != nil {
		return nil, err
	}
	return r.search[cd], nil
}

func (r *run) scanLocked(defs []*compiledShape) error {
	var entries []source.Entry
	r.x.src.Lock()
	skipped, err := r.snap.Walk(func(e source.Entry) error {
		if isSource(e.Path) {
			entries = append(entries, e)
		}
		return nil
	})
	r.x.src.Unlock()
	if err != nil {
		return err
	}
	found := make([][]source.Entry, len(defs))
	for _, e := range entries {
		var f *source.File
		hit := false
		for i, cd := range defs {
			ok, known := r.x.anchors.holds(e.Blob, cd.anchorIDs)
			if !known {
				if f == nil {
					r.x.src.Lock()
					f, err = source.ReadEntry(r.snap, e)
					r.x.src.Unlock()
					if err != nil {
						// Too large or missing from a partial copy: not
						// a file a finding can be cited in.
						f = nil
						break
					}
					e.Blob = f.Blob
				}
				ok = r.x.anchors.record(e.Blob, f.Data, cd.anchorIDs)
			}
			if ok {
				found[i] = append(found[i], e)
				hit = true
			}
		}
		if hit && f != nil {
			// The definitions will read this file: keep the bytes.
			r.mu.Lock()
			r.hitFiles[e.Path] = f
			r.mu.Unlock()
		}
	}
	if r.search == nil {
		r.search = map[*compiledShape]*searchResult{}
	}
	for i, cd := range defs {
		h := sha256.New()
		for _, e := range found[i] {
			fmt.Fprintf(h, "%s\x00%s\n", e.Path, e.Blob)
		}
		for _, name := range skipped {
			fmt.Fprintf(h, "skipped\x00%s\n", name)
		}
		r.search[cd] = &searchResult{entries: found[i], skipped: skipped, id: "search " + hex.EncodeToString(h.Sum(nil))}
	}
	return nil
}

// readEntry reads a file the search found, once per path.
func (r *run) readEntry(e source.Entry) (*source.File, error) {
	r.mu.Lock()
	f, ok := r.hitFiles[e.Path]
	r.mu.Unlock()
	if ok {
		return f, nil
	}
	r.x.src.Lock()
	f, err := source.ReadEntry(r.snap, e)
	r.x.src.Unlock()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.hitFiles[e.Path] = f
	r.mu.Unlock()
	return f, nil
}
