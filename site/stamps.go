package site

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
)

// Stamps remembers, for each release of a releases directory, the size
// and modification time its findings.json had when keyfindings last knew
// its SHA-256 (having written the file, or read and hashed it). A file
// whose size and time are still those is taken to hold those bytes, as
// rsync's quick check takes a file, without reading it: a directory of a
// thousand releases holds hundreds of megabytes of findings.json, and
// reading and hashing them all was most of a rerun with nothing new.
//
// The stamps are kept outside the directory (in the cache directory):
// they hold times, and the output holds none.
type Stamps struct {
	file string
	mu   sync.Mutex
	by   map[string]stamp
	// dirty is set when by differs from what file holds.
	dirty bool
}

// stamp is what a findings.json was when its SHA-256 was known.
type stamp struct {
	Size    int64  `json:"size"`
	ModTime int64  `json:"mtime_ns"`
	SHA256  string `json:"sha256"`
}

// LoadStamps reads the stamps kept in file. A missing or unreadable file
// gives no stamps (every findings.json is then read and hashed); an empty
// file name keeps them in memory only.
func LoadStamps(file string) *Stamps {
	s := &Stamps{file: file, by: map[string]stamp{}}
	if file == "" {
		return s
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return s
	}
	if json.Unmarshal(data, &s.by) != nil || s.by == nil {
		s.by = map[string]stamp{}
	}
	return s
}

// holds reports whether file (release tag's findings.json) is, by its
// stamp, the one whose SHA-256 is sum.
func (s *Stamps) holds(tag, file, sum string) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	st, ok := s.by[tag]
	s.mu.Unlock()
	if !ok || st.SHA256 != sum {
		return false
	}
	fi, err := os.Stat(file)
	return err == nil && fi.Mode().IsRegular() && fi.Size() == st.Size && fi.ModTime().UnixNano() == st.ModTime
}

// record notes that file (release tag's findings.json) now holds the
// bytes whose SHA-256 is sum.
func (s *Stamps) record(tag, file, sum string) {
	if s == nil {
		return
	}
	fi, err := os.Stat(file)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil || !fi.Mode().IsRegular() {
		s.forgetLocked(tag)
		return
	}
	st := stamp{Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), SHA256: sum}
	if s.by[tag] != st {
		s.by[tag], s.dirty = st, true
	}
}

// forget drops the stamp of release tag: its findings.json is not known.
func (s *Stamps) forget(tag string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forgetLocked(tag)
}

func (s *Stamps) forgetLocked(tag string) {
	if _, ok := s.by[tag]; ok {
		delete(s.by, tag)
		s.dirty = true
	}
}

// Save writes the stamps to their file if they changed. Failing to keep
// them costs the next run time, not correctness.
func (s *Stamps) Save() error {
	if s == nil || s.file == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.dirty {
		return nil
	}
	data, err := json.Marshal(s.by)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.file), 0o755); err != nil {
		return err
	}
	if err := writeFileAtomic(s.file, data); err != nil {
		return err
	}
	s.dirty = false
	return nil
}
