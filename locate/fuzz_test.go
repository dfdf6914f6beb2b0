package locate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/keyfindings/keyfindings/source"
)

// FuzzSpanBytes checks the hash rule's byte arithmetic against an
// independent model of `sed -n 'a,bp'` for any bytes and range.
func FuzzSpanBytes(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), 1, 2)
	f.Add([]byte("a\r\nb"), 2, 2)
	f.Add([]byte("\n\n\n"), 3, 3)
	f.Add([]byte(""), 1, 1)
	f.Add([]byte("no newline"), 1, 1)
	f.Fuzz(func(t *testing.T, data []byte, start, end int) {
		got, err := source.SpanBytes(data, start, end)
		lines := bytes.SplitAfter(data, []byte("\n"))
		if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		valid := start >= 1 && end >= start && end <= len(lines)
		if !valid {
			if err == nil {
				t.Fatalf("source.SpanBytes(%q, %d, %d) = %q, want an error", data, start, end, got)
			}
			return
		}
		if err != nil {
			t.Fatalf("source.SpanBytes(%q, %d, %d): %v", data, start, end, err)
		}
		if want := bytes.Join(lines[start-1:end], nil); !bytes.Equal(got, want) {
			t.Fatalf("source.SpanBytes(%q, %d, %d) = %q, want %q", data, start, end, got, want)
		}
	})
}

// FuzzLocate runs the routing fixture's query over arbitrary file bytes:
// no panic, and a located record cites exactly its lines with their hash.
func FuzzLocate(f *testing.F) {
	f.Add([]byte(provider))
	f.Add([]byte("export function provider() {\r\n  return [A]\r\n}"))
	f.Add([]byte("((((\nexport function provider() { return [A] }\n"))
	f.Add([]byte("\xff\x00export function provider() {}"))
	x := loadDefs(f, "../testdata/extract/defs")
	f.Fuzz(func(t *testing.T, src []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, filepath.FromSlash(routingPath))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, src, 0o644)
		res, err := x.Extract(source.NewDirSnapshot(dir), Meta{})
		if err != nil {
			t.Fatal(err)
		}
		r := res.Document.Find("routing")
		if !r.Located() {
			return
		}
		lines := bytes.SplitAfter(src, []byte("\n"))
		want := bytes.Join(lines[r.Location.Lines.Start-1:r.Location.Lines.End], nil)
		sum := sha256.Sum256(want)
		if r.Location.SHA256 != hex.EncodeToString(sum[:]) {
			t.Fatalf("hash not over lines %d-%d", r.Location.Lines.Start, r.Location.Lines.End)
		}
	})
}
