package site

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A stamp vouches for a file only while its size and modification time
// are those it was taken with, and only for the SHA-256 it was taken
// for; stamps survive a save and a load; without a file to keep them in
// they live in memory only.
func TestStamps(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "findings.json")
	if err := os.WriteFile(file, []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dir, "cache", "stamps.json")
	s := LoadStamps(keep)
	if s.holds("v1", file, "sum") {
		t.Fatal("a file with no stamp is vouched for")
	}
	s.record("v1", file, "sum")
	if !s.holds("v1", file, "sum") {
		t.Fatal("a file just stamped is not vouched for")
	}
	if s.holds("v1", file, "other") {
		t.Error("a stamp vouches for another SHA-256")
	}
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	again := LoadStamps(keep)
	if !again.holds("v1", file, "sum") {
		t.Fatal("a saved stamp was not loaded back")
	}

	// Same size, another time: not vouched for.
	if err := os.WriteFile(file, []byte(`{"a":2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(file, past, past); err != nil {
		t.Fatal(err)
	}
	if again.holds("v1", file, "sum") {
		t.Error("a file rewritten under the same size is vouched for")
	}
	again.forget("v1")
	if err := again.Save(); err != nil {
		t.Fatal(err)
	}
	if LoadStamps(keep).holds("v1", file, "sum") {
		t.Error("a forgotten stamp came back")
	}

	mem := LoadStamps("")
	mem.record("v1", file, "sum")
	if err := mem.Save(); err != nil {
		t.Fatal(err)
	}
	if !mem.holds("v1", file, "sum") {
		t.Error("in-memory stamps do not vouch")
	}
	var none *Stamps
	if none.holds("v1", file, "sum") {
		t.Error("no stamps vouch for a file")
	}
}
