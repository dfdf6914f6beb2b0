// Package site turns records into the published files and writes them
// atomically.
package site

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Marker is the file that marks a directory as written by keyfindings, so a
// later build may replace it.
const Marker = ".keyfindings"

const markerText = "This directory was written by keyfindings; a build replaces it whole.\n"

// Files maps slash-separated relative paths to their content.
type Files map[string][]byte

// WriteDir writes files as the directory out, atomically: everything goes
// to a temporary directory beside out, which replaces out only when every
// write succeeded. An existing out must be empty or have been written by
// keyfindings, unless force is set. On error the previous out is untouched.
func WriteDir(out string, files Files, force bool) error {
	out = filepath.Clean(out)
	if err := checkTarget(out, force); err != nil {
		return err
	}
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", parent, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".tmp-")
	if err != nil {
		return fmt.Errorf("--out %s: cannot write beside it: %w", out, err)
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !filepath.IsLocal(filepath.FromSlash(name)) {
			return fmt.Errorf("refusing to write %q outside the output directory", name)
		}
		full := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
		if err := os.WriteFile(full, files[name], 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, Marker), []byte(markerText), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", Marker, err)
	}
	if err := swap(tmp, out); err != nil {
		return err
	}
	ok = true
	return nil
}

// checkTarget refuses an out that is a file, or a non-empty directory that
// keyfindings did not write.
func checkTarget(out string, force bool) error {
	info, err := os.Lstat(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--out %s: %w", out, err)
	}
	if info.Mode()&os.ModeSymlink != 0 {
		// The site is renamed into place, which would replace the link,
		// not write where it points.
		return fmt.Errorf("--out %s is a symbolic link; give the directory it points to", out)
	}
	if !info.IsDir() {
		return fmt.Errorf("--out %s is a file, not a directory; choose another --out", out)
	}
	if precious(out) {
		return fmt.Errorf("--out %s is the root, your home or a directory that holds the current one; choose a directory of its own", out)
	}
	if force {
		return nil
	}
	if _, err := os.Stat(filepath.Join(out, Marker)); err == nil {
		return nil
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return fmt.Errorf("--out %s: %w", out, err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("--out %s is a non-empty directory that keyfindings did not write; choose an empty one or pass --force to replace it", out)
	}
	return nil
}

// precious reports whether out is a directory no build may replace, even
// with --force: the file system root, the home directory, or the current
// directory or one of its parents.
func precious(out string) bool {
	abs, err := filepath.Abs(out)
	if err != nil {
		return true
	}
	if abs == filepath.Dir(abs) {
		return true
	}
	if home, err := os.UserHomeDir(); err == nil && filepath.Clean(home) == abs {
		return true
	}
	if wd, err := os.Getwd(); err == nil {
		rel, err := filepath.Rel(abs, wd)
		if err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
			return true
		}
	}
	return false
}

// swap puts tmp in place of out: out moves aside, tmp takes its name, and
// the old copy is removed. If the second rename fails, out is restored.
func swap(tmp, out string) error {
	if _, err := os.Lstat(out); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(tmp, out); err != nil {
			return fmt.Errorf("move site into %s: %w", out, err)
		}
		return nil
	}
	old, err := os.MkdirTemp(filepath.Dir(out), "."+filepath.Base(out)+".old-")
	if err != nil {
		return fmt.Errorf("--out %s: %w", out, err)
	}
	os.Remove(old)
	if err := os.Rename(out, old); err != nil {
		return fmt.Errorf("move old %s aside: %w", out, err)
	}
	if err := os.Rename(tmp, out); err != nil {
		if rerr := os.Rename(old, out); rerr != nil {
			return fmt.Errorf("move site into %s: %v; the previous site is at %s", out, err, old)
		}
		return fmt.Errorf("move site into %s: %w", out, err)
	}
	return os.RemoveAll(old)
}
