// Package site turns records into the published files and writes them
// atomically, after the records (source → locate → records → site): a
// commit's pages and findings.md through the templates, goldmark and the
// one escaping toolkit (mdtext), and the pages of a releases directory.
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

// Kind is what an output directory holds, as its top-level entries tell.
type Kind int

// The kinds of output directory.
const (
	// KindEmpty is an absent or empty directory.
	KindEmpty Kind = iota
	// KindSite is a site written by build: the marker and findings.json.
	KindSite
	// KindReleases is a releases directory: the marker and
	// ReleasesManifestFile.
	KindReleases
	// KindMarked is written by keyfindings but of neither kind above; either
	// kind may replace it.
	KindMarked
	// KindForeign is a non-empty directory keyfindings did not write.
	KindForeign
)

// String describes the kind by what gives it away.
func (k Kind) String() string {
	switch k {
	case KindEmpty:
		return "an empty directory"
	case KindSite:
		return "a single site (it holds findings.json)"
	case KindReleases:
		return "a releases directory (it holds " + ReleasesManifestFile + ")"
	case KindMarked:
		return "a directory written by keyfindings"
	}
	return "a non-empty directory that keyfindings did not write"
}

// WriteDir writes files as the site out, atomically: everything goes
// to a temporary directory beside out, which replaces out only when every
// write succeeded. An existing out must be empty or a site written by
// keyfindings, unless force is set. On error the previous out is untouched.
func WriteDir(out string, files Files, force bool) error {
	out = filepath.Clean(out)
	if _, err := checkTarget(out, KindSite, force); err != nil {
		return err
	}
	return replaceDir(out, files, true)
}

// replaceDir writes files as the directory out (with the marker when
// marked is set) in a temporary directory beside it, and swaps it into
// place when every write succeeded; on error out is untouched.
func replaceDir(out string, files Files, marked bool) error {
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", parent, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".tmp-")
	if err != nil {
		return &DirError{Role: OutputDir, Dir: out, Problem: ": cannot write beside it: " + err.Error(), Err: err}
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
	if marked {
		if err := os.WriteFile(filepath.Join(tmp, Marker), []byte(markerText), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", Marker, err)
		}
	}
	if err := swap(tmp, out); err != nil {
		return err
	}
	ok = true
	return nil
}

// writeFileAtomic replaces (or creates) file by a temporary file beside
// it renamed over it, so a reader never sees it half-written.
func writeFileAtomic(file string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp-")
	if err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}

// checkTarget refuses an out that is a file, a link or a precious
// directory, and, unless force is set, a non-empty directory that
// keyfindings did not write or that holds another kind of output than
// want. It returns the kind out holds.
func checkTarget(out string, want Kind, force bool) (Kind, error) {
	info, err := os.Lstat(out)
	if errors.Is(err, os.ErrNotExist) {
		return KindEmpty, nil
	}
	if err != nil {
		return 0, &DirError{Role: OutputDir, Dir: out, Problem: ": " + err.Error(), Err: err}
	}
	if info.Mode()&os.ModeSymlink != 0 {
		// The site is renamed into place, which would replace the link,
		// not write where it points.
		return 0, &DirError{Role: OutputDir, Dir: out, Problem: " is a symbolic link; give the directory it points to"}
	}
	if !info.IsDir() {
		return 0, &DirError{Role: OutputDir, Dir: out, Problem: " is a file, not a directory", Remedy: ChooseAnother}
	}
	if precious(out) {
		return 0, &DirError{Role: OutputDir, Dir: out, Problem: " is the root, your home or a directory that holds the current one; choose a directory of its own"}
	}
	kind, err := dirKind(out)
	if err != nil {
		return 0, &DirError{Role: OutputDir, Dir: out, Problem: ": " + err.Error(), Err: err}
	}
	switch {
	case force || kind == want || kind == KindEmpty || kind == KindMarked:
		return kind, nil
	case kind == KindForeign:
		return 0, &DirError{Role: OutputDir, Dir: out, Problem: " is a non-empty directory that keyfindings did not write", Remedy: ChooseEmptyOrForce}
	}
	noun, _, _ := strings.Cut(want.String(), " (")
	return 0, &DirError{Role: OutputDir, Dir: out, Problem: fmt.Sprintf(" is %s, and this command writes %s", kind, noun), Remedy: ChooseAnotherOrForce}
}

// dirKind tells what the directory dir holds by its top-level entries.
func dirKind(dir string) (Kind, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	has := map[string]bool{}
	for _, e := range entries {
		has[e.Name()] = true
	}
	switch {
	case len(entries) == 0:
		return KindEmpty, nil
	case !has[Marker]:
		return KindForeign, nil
	case has[ReleasesManifestFile]:
		return KindReleases, nil
	case has["findings.json"]:
		return KindSite, nil
	}
	return KindMarked, nil
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
		return &DirError{Role: OutputDir, Dir: out, Problem: ": " + err.Error(), Err: err}
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
