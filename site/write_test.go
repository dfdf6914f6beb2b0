package site

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// listing returns every path under dir, for "nothing else was touched".
func listing(t *testing.T, dir string) string {
	t.Helper()
	var names []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, rel)
		}
		return nil
	})
	sort.Strings(names)
	return strings.Join(names, "\n")
}

func TestWriteDirTargets(t *testing.T) {
	files := Files{"index.html": []byte("new\n")}
	tests := []struct {
		name  string
		setup func(parent string) string // returns --out
		force bool
		want  string // error substring; "" for success
	}{
		{"new directory", func(p string) string { return filepath.Join(p, "site") }, false, ""},
		{"empty directory", func(p string) string {
			d := filepath.Join(p, "site")
			os.Mkdir(d, 0o755)
			return d
		}, false, ""},
		{"a file", func(p string) string {
			f := filepath.Join(p, "site")
			os.WriteFile(f, []byte("mine"), 0o644)
			return f
		}, false, "is a file"},
		{"a link to a directory", func(p string) string {
			d := filepath.Join(p, "real")
			os.Mkdir(d, 0o755)
			l := filepath.Join(p, "site")
			os.Symlink(d, l)
			return l
		}, true, "is a symbolic link"},
		{"a foreign non-empty directory", func(p string) string {
			d := filepath.Join(p, "site")
			os.Mkdir(d, 0o755)
			os.WriteFile(filepath.Join(d, "thesis.tex"), []byte("mine"), 0o644)
			return d
		}, false, "did not write; choose an empty one or have it replaced"},
		{"a foreign non-empty directory with --force", func(p string) string {
			d := filepath.Join(p, "site")
			os.Mkdir(d, 0o755)
			os.WriteFile(filepath.Join(d, "old.html"), []byte("old"), 0o644)
			return d
		}, true, ""},
		{"a releases directory", func(p string) string {
			d := filepath.Join(p, "site")
			os.Mkdir(d, 0o755)
			os.WriteFile(filepath.Join(d, Marker), []byte(markerText), 0o644)
			os.WriteFile(filepath.Join(d, ReleasesManifestFile), []byte("{}"), 0o644)
			return d
		}, false, "is a releases directory (it holds .keyfindings-releases.json), and this command writes a single site; choose another output directory, or have it replaced"},
		{"a releases directory with --force", func(p string) string {
			d := filepath.Join(p, "site")
			os.Mkdir(d, 0o755)
			os.WriteFile(filepath.Join(d, Marker), []byte(markerText), 0o644)
			os.WriteFile(filepath.Join(d, ReleasesManifestFile), []byte("{}"), 0o644)
			return d
		}, true, ""},
		{"the current directory, even with --force", func(p string) string {
			d := filepath.Join(p, "work")
			os.MkdirAll(filepath.Join(d, "sub"), 0o755)
			os.WriteFile(filepath.Join(d, "notes.txt"), []byte("mine"), 0o644)
			wd, _ := os.Getwd()
			os.Chdir(filepath.Join(d, "sub"))
			t.Cleanup(func() { os.Chdir(wd) })
			return d
		}, true, "directory of its own"},
		{"below a file", func(p string) string {
			f := filepath.Join(p, "file")
			os.WriteFile(f, []byte("mine"), 0o644)
			return filepath.Join(f, "site")
		}, false, "not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			out := tt.setup(parent)
			before := listing(t, parent)
			err := WriteDir(out, files, tt.force)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("err %v, want one line containing %q", err, tt.want)
				}
				if after := listing(t, parent); after != before {
					t.Errorf("a refused write changed the tree:\n%s\nwas\n%s", after, before)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(filepath.Join(out, "index.html"))
			if string(got) != "new\n" {
				t.Errorf("index.html = %q", got)
			}
			if _, err := os.Stat(filepath.Join(out, Marker)); err != nil {
				t.Errorf("no marker: %v", err)
			}
			if _, err := os.Stat(filepath.Join(out, "old.html")); err == nil {
				t.Error("a replaced site kept a file of the old one")
			}
			// Nothing is left beside --out.
			entries, _ := os.ReadDir(parent)
			if len(entries) != 1 {
				t.Errorf("left beside --out: %v", entries)
			}
			// A site written by keyfindings is replaced without --force.
			if err := WriteDir(out, Files{"index.html": []byte("again\n")}, false); err != nil {
				t.Errorf("rewrite of our own site: %v", err)
			}
		})
	}
}
