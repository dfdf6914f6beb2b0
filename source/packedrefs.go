package source

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// packedRefsFile is where git keeps the references it packed.
const packedRefsFile = "packed-refs"

// packedRefs is the packed-refs file as read once: go-git reads and parses
// the whole file on every lookup that finds no loose file, a few
// milliseconds for opencode's two thousand references and more for a
// name that is not there (resolving a tag name tries several). Placing a
// commit against the catalog's tags looks up a hundred or so.
type packedRefs struct {
	// size and mod identify the file read; a lookup that finds the file
	// changed reads it again.
	size int64
	mod  time.Time
	refs map[plumbing.ReferenceName]*plumbing.Reference
}

// Reference returns the reference name: from its loose file, as go-git
// reads it, else from the packed references read once (again when the
// file changes). A name go-git would refuse, or one it would read a file
// for, is left to go-git, so the answers and errors are go-git's.
func (s *packStorage) Reference(name plumbing.ReferenceName) (*plumbing.Reference, error) {
	if !plainRefName(name) {
		return s.Storage.Reference(name)
	}
	fsys := s.Storage.Filesystem()
	if _, err := fsys.Lstat(string(name)); !errors.Is(err, fs.ErrNotExist) {
		return s.Storage.Reference(name)
	}
	info, err := fsys.Stat(packedRefsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, plumbing.ErrReferenceNotFound
	}
	if err != nil {
		return s.Storage.Reference(name)
	}
	s.refsMu.Lock()
	p := s.packed
	if p == nil || p.size != info.Size() || !p.mod.Equal(info.ModTime()) {
		p, err = readPackedRefs(fsys, info.Size(), info.ModTime())
		if err != nil {
			s.refsMu.Unlock()
			return s.Storage.Reference(name)
		}
		s.packed = p
	}
	s.refsMu.Unlock()
	if r, ok := p.refs[name]; ok {
		return r, nil
	}
	return nil, plumbing.ErrReferenceNotFound
}

// plainRefName reports whether name is a reference name under refs/ made
// of letters, digits and . _ - + / only, with no empty, "." or ".."
// component and none starting with a dot: a name go-git accepts and
// whose loose file has that very path.
func plainRefName(name plumbing.ReferenceName) bool {
	rest, ok := strings.CutPrefix(string(name), "refs/")
	if !ok || rest == "" {
		return false
	}
	for part := range strings.SplitSeq(rest, "/") {
		if part == "" || part[0] == '.' {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-' || c == '+') {
				return false
			}
		}
	}
	return true
}

// readPackedRefs reads the packed-refs file as go-git does: a line is a
// hash and a name; comments and peeled lines (^hash) are skipped; the
// first line naming a reference wins.
func readPackedRefs(fsys billy.Filesystem, size int64, mod time.Time) (*packedRefs, error) {
	f, err := fsys.Open(packedRefsFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p := &packedRefs{size: size, mod: mod, refs: map[plumbing.ReferenceName]*plumbing.Reference{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] == '#' || line[0] == '^' {
			continue
		}
		target, ref, ok := bytes.Cut(line, []byte(" "))
		if !ok || bytes.IndexByte(ref, ' ') >= 0 {
			return nil, errors.New("packed-refs: malformed line")
		}
		n := plumbing.ReferenceName(ref)
		if _, dup := p.refs[n]; !dup {
			p.refs[n] = plumbing.NewReferenceFromStrings(string(ref), string(target))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return p, nil
}
