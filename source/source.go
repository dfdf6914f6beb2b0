package source

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// MaxBlobSize is the largest file keyfindings reads.
const MaxBlobSize = 8 << 20

// ErrNotFound reports a path that does not exist at the commit.
var ErrNotFound = errors.New("file not found")

// TooLargeError reports a file over MaxBlobSize.
type TooLargeError struct {
	Path string
	Size int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is %d bytes, over the %d-byte limit for a source file", e.Path, e.Size, MaxBlobSize)
}

// SymlinkError reports a symbolic link where a file was expected. Links are
// never followed: a link could point outside the tree.
type SymlinkError struct {
	Path   string
	Target string
}

func (e *SymlinkError) Error() string {
	return fmt.Sprintf("%s is a symbolic link (to %q); keyfindings reads files, never links", e.Path, e.Target)
}

// File is one file's bytes at the source's commit.
type File struct {
	Path string
	// Blob is the git blob id (for plain directories, computed the way git
	// would).
	Blob string
	Data []byte
}

// Entry is a file listed by Snapshot.Walk, before its bytes are read.
type Entry struct {
	Path string
	Blob string
}

// Snapshot is the tree of one commit (or one plain directory): the small
// interface locating needs.
type Snapshot interface {
	// Commit is the full commit id, or "" for a plain directory.
	Commit() string
	// CommittedAt is the committer time, zero for a plain directory.
	CommittedAt() time.Time
	// ReadFile returns the file at a repo-relative path, ErrNotFound, or a
	// *TooLargeError.
	ReadFile(path string) (*File, error)
	// Walk lists every regular file, in path order. Entries whose names
	// cannot be a file path (control characters, invalid UTF-8: git
	// accepts such names) are not listed; their names, quoted as Go
	// strings and sorted, are returned as skipped.
	Walk(fn func(Entry) error) (skipped []string, err error)
	// History is the commit graph the commit belongs to, for questions of
	// ancestry (see since/until); nil for a plain directory, where
	// ancestry is unknown.
	History() History
}

// gitSnapshot reads one commit's tree from a go-git repository.
type gitSnapshot struct {
	repo   *git.Repository
	commit *object.Commit
	tree   *object.Tree
	// hist, when set, is the History the source shares among its
	// snapshots; else go-git reads the commits.
	hist History
}

// NewGitSnapshot returns the snapshot of commit c in repo.
func NewGitSnapshot(repo *git.Repository, c *object.Commit) (Snapshot, error) {
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", c.Hash, err)
	}
	return &gitSnapshot{repo: repo, commit: c, tree: tree}, nil
}

// NewGitSnapshotIn is NewGitSnapshot with h as the snapshot's History,
// for a caller that makes many snapshots of one repository and places
// their commits against release tags (keyfindings log, with the History
// of NewPackHistory): the answers an Extractor keeps under a History are
// then shared among them.
func NewGitSnapshotIn(repo *git.Repository, c *object.Commit, h History) (Snapshot, error) {
	snap, err := NewGitSnapshot(repo, c)
	if err != nil {
		return nil, err
	}
	snap.(*gitSnapshot).hist = h
	return snap, nil
}

func (s *gitSnapshot) Commit() string         { return s.commit.Hash.String() }
func (s *gitSnapshot) CommittedAt() time.Time { return s.commit.Committer.When.UTC() }
func (s *gitSnapshot) History() History {
	if s.hist != nil {
		return s.hist
	}
	return gitHistory{repo: s.repo}
}

func (s *gitSnapshot) ReadFile(p string) (*File, error) {
	entry, err := s.tree.FindEntry(p)
	if err != nil {
		if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("look up %s: %w", p, err)
	}
	if entry.Mode == filemode.Symlink {
		target := ""
		if f, err := s.readBlob(p, entry.Hash); err == nil && len(f.Data) < 4096 {
			target = string(f.Data)
		}
		return nil, &SymlinkError{Path: p, Target: target}
	}
	if !entry.Mode.IsFile() {
		return nil, ErrNotFound
	}
	return s.readBlob(p, entry.Hash)
}

func (s *gitSnapshot) readBlob(p string, h plumbing.Hash) (*File, error) {
	data, err := ReadBlob(s.repo, h)
	var tooLarge *TooLargeError
	if errors.As(err, &tooLarge) {
		return nil, &TooLargeError{Path: p, Size: tooLarge.Size}
	}
	if err != nil {
		return nil, fmt.Errorf("read blob %s (%s): %w", h, p, err)
	}
	return &File{Path: p, Blob: h.String(), Data: data}, nil
}

// ReadBlob returns the bytes of blob h in repo; *TooLargeError (its Path
// the blob id) for one over MaxBlobSize. A blob the repository's pack
// reader decoded (a repository Open opened) is not copied: its bytes are
// shared with that reader's cache, so they must never be written; the
// slice's capacity is its length, so an append copies them.
func ReadBlob(repo *git.Repository, h plumbing.Hash) ([]byte, error) {
	obj, err := repo.Storer.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, err
	}
	if obj.Size() > MaxBlobSize {
		return nil, &TooLargeError{Path: h.String(), Size: obj.Size()}
	}
	if p, ok := obj.(*packedObject); ok {
		return p.data[:len(p.data):len(p.data)], nil
	}
	b, err := object.DecodeBlob(obj)
	if err != nil {
		return nil, err
	}
	return BlobBytes(b)
}

// BlobBytes reads a blob whole into one buffer of the size its object
// header gives (io.ReadAll would grow a buffer by doubling, allocating
// about twice the bytes: over a log of opencode's whole history, 2.4 GB
// for 1.2 GB of blobs, which the collector then pays for). A stream that
// holds more or fewer bytes than the header says is an error.
func BlobBytes(b *object.Blob) ([]byte, error) {
	if b.Size < 0 || b.Size > MaxBlobSize {
		return nil, &TooLargeError{Path: b.Hash.String(), Size: b.Size}
	}
	r, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data := make([]byte, b.Size)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("blob %s holds fewer than the %d bytes its header gives: %w", b.Hash, b.Size, err)
	}
	// Reading to the end also lets the decompressor check its checksum.
	var more [1]byte
	if n, err := r.Read(more[:]); n > 0 || err != nil && err != io.EOF {
		if err == nil {
			err = errors.New("more bytes than its header gives")
		}
		return nil, fmt.Errorf("blob %s: %w", b.Hash, err)
	}
	return data, nil
}

func (s *gitSnapshot) Walk(fn func(Entry) error) ([]string, error) {
	w := object.NewTreeWalker(s.tree, true, nil)
	defer w.Close()
	// go-git's own check stops the whole walk at the first name it would
	// not check out; nothing here is checked out, so names are checked by
	// usablePath instead and a bad one costs only its own entry.
	w.SkipPathValidation()
	var entries []Entry
	var skipped []string
	for {
		name, entry, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("walk tree of %s: %w", s.commit.Hash, err)
		}
		if !usablePath(name) {
			// Report the outermost bad name once: what lies below a bad
			// directory is skipped with it.
			if usablePath(path.Dir(name)) {
				skipped = append(skipped, strconv.Quote(name))
			}
			continue
		}
		// Symlinks are skipped: a link is never followed, and its target
		// text is not source.
		if entry.Mode != filemode.Regular && entry.Mode != filemode.Executable && entry.Mode != filemode.Deprecated {
			continue
		}
		entries = append(entries, Entry{Path: name, Blob: entry.Hash.String()})
	}
	return skipped, visit(entries, skipped, fn)
}

// visit calls fn on entries in path order and sorts skipped.
func visit(entries []Entry, skipped []string, fn func(Entry) error) error {
	sort.Strings(skipped)
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	for _, e := range entries {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// usablePath reports whether a name from a tree or a directory can be a
// path in a record: a valid slash-separated path (fs.ValidPath), UTF-8,
// with no control characters. Git itself accepts names that fail this
// (a newline, an escape sequence); such an entry is skipped, never cited.
func usablePath(p string) bool {
	if !fs.ValidPath(p) || !utf8.ValidString(p) {
		return false
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return false
		}
	}
	return true
}

// ReadEntry reads a file listed by Walk.
func ReadEntry(s Snapshot, e Entry) (*File, error) {
	if g, ok := s.(*gitSnapshot); ok {
		return g.readBlob(e.Path, plumbing.NewHash(e.Blob))
	}
	return s.ReadFile(e.Path)
}

// dirSnapshot reads plain files under a directory.
type dirSnapshot struct {
	root string
}

// NewDirSnapshot returns a snapshot of the plain files under root.
func NewDirSnapshot(root string) Snapshot { return &dirSnapshot{root: root} }

func (s *dirSnapshot) Commit() string         { return "" }
func (s *dirSnapshot) CommittedAt() time.Time { return time.Time{} }
func (s *dirSnapshot) History() History       { return nil }

func (s *dirSnapshot) ReadFile(p string) (*File, error) {
	if !fs.ValidPath(p) {
		return nil, ErrNotFound
	}
	// Every component is checked with Lstat: a linked directory on the way
	// could lead outside the tree, so no link is followed.
	parts := strings.Split(p, "/")
	for i := 1; i < len(parts); i++ {
		dir := filepath.Join(s.root, filepath.FromSlash(strings.Join(parts[:i], "/")))
		if info, err := os.Lstat(dir); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(dir)
			return nil, &SymlinkError{Path: strings.Join(parts[:i], "/"), Target: target}
		}
	}
	full := filepath.Join(s.root, filepath.FromSlash(p))
	info, err := os.Lstat(full)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("stat %s: %w", p, err)
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(full)
		return nil, &SymlinkError{Path: p, Target: target}
	}
	if !info.Mode().IsRegular() {
		return nil, ErrNotFound
	}
	if info.Size() > MaxBlobSize {
		return nil, &TooLargeError{Path: p, Size: info.Size()}
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	return &File{Path: p, Blob: BlobID(data), Data: data}, nil
}

func (s *dirSnapshot) Walk(fn func(Entry) error) ([]string, error) {
	var entries []Entry
	var skipped []string
	err := filepath.WalkDir(s.root, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if full != s.root {
			rel, err := filepath.Rel(s.root, full)
			if err != nil {
				return err
			}
			if rel = filepath.ToSlash(rel); !usablePath(rel) {
				skipped = append(skipped, strconv.Quote(rel))
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(s.root, full)
		if err != nil {
			return err
		}
		entries = append(entries, Entry{Path: filepath.ToSlash(rel)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", s.root, err)
	}
	return skipped, visit(entries, skipped, fn)
}

// BlobID returns the git blob id of data.
func BlobID(data []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// isHex reports whether s is a (possibly abbreviated) hex object id.
func isHex(s string) bool {
	return len(s) >= 4 && len(s) <= 40 && allHex(s)
}

// FindEntry names what the tree holds at p without reading it: its
// object id and mode, "" when there is no file there.
func (s *gitSnapshot) FindEntry(p string) (string, error) {
	entry, err := s.tree.FindEntry(p)
	if err != nil {
		if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
			return "", nil
		}
		return "", fmt.Errorf("look up %s: %w", p, err)
	}
	if !entry.Mode.IsFile() {
		// A directory or submodule: ReadFile finds no file either.
		return "", nil
	}
	return entry.Hash.String() + " " + entry.Mode.String(), nil
}
