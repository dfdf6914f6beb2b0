package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/locate"
	"github.com/keyfindings/keyfindings/releases"
	"github.com/keyfindings/keyfindings/review"
	"github.com/keyfindings/keyfindings/source"
)

// defsDir is where the built-in catalog's definition files live in the
// keyfindings repository.
const defsDir = "findings/defs"

func runReview(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("review", stderr)
	fs.Usage = commandUsage(fs, "keyfindings review [flags]", "Lists the records at --ref whose facts differ from those their definition was reviewed against, each changed fact item by item. "+
		"After re-reading the claims, --accept records the new facts in the definition files (--defs DIR, else findings/defs in this checkout).")
	var src sourceFlags
	src.registerRef(fs)
	src.registerSource(fs)
	src.registerDefs(fs) // no --web-url: review prints no permalinks
	accept := fs.Bool("accept", false, "rewrite the reviewed section of each flagged definition with the facts and code found (after re-reading its claim)")
	force := fs.Bool("force", false, "with --accept, replace or drop facts even where the claim was checked against code at a newer commit, or where the history cannot tell")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected argument %q (review takes flags only)", rest[0])
	}
	if *force && !*accept {
		return usagef("--force only applies with --accept (it lets an accept replace facts checked at a newer commit)")
	}
	if *accept && src.defs == "" {
		// Accepting writes definition files, so the facts must come from
		// those files, not from the copy compiled into this binary.
		dir, err := findDefsDir()
		if err != nil {
			return err
		}
		src.defs = dir
	}
	cat, x, err := src.catalog()
	if err != nil {
		return err
	}
	ctx := context.Background()
	o, err := src.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer o.Close()
	at, err := o.At(ctx, src.ref)
	if err != nil {
		return err
	}
	res, err := src.extractAt(ctx, o, x, src.ref)
	if err != nil {
		return err
	}
	doc := res.Document
	flags := review.Reviews(cat, doc)
	failing := 0
	for _, f := range flags {
		if f.FactsDiffer() {
			failing++
		}
	}
	if !src.quiet {
		fmt.Fprintf(stderr, "keyfindings: %d record(s) flagged for review %s, %d more whose code differs from the code their claim was checked against\n", failing, readLabel(doc), len(flags)-failing)
	}
	for _, f := range flags {
		if !f.FactsDiffer() {
			fmt.Fprintf(stdout, "%s\t%s (checked at %s, SHA-256 %s)\n", f.ID, f.Review, f.Checked.At, f.Checked.SHA256[:12])
			continue
		}
		fmt.Fprintf(stdout, "%s\t%s\n", f.ID, f.Review)
		for _, l := range diff.FactLines(f.Changes) {
			fmt.Fprintf(stdout, "    %s\n", l)
		}
	}
	if *accept {
		checked := findings.CheckedCode{At: findings.SourceLabel(doc.Source)}
		if doc.Source.Commit != nil {
			checked.Commit = *doc.Source.Commit
		}
		accepted, replaced := review.Accepted(cat, doc, checked)
		if !*force {
			if err := olderThanReviewed(x, at.Snapshot, checked, replaced); err != nil {
				return err
			}
		}
		written, err := review.AcceptReviews(src.defs, accepted)
		if err != nil {
			return err
		}
		for _, f := range written {
			fmt.Fprintf(stdout, "accepted\t%s\n", f)
		}
		if len(written) == 0 {
			fmt.Fprintln(stdout, "nothing to accept: every reviewed section matches")
		}
		return nil
	}
	if failing > 0 {
		fmt.Fprintf(stderr, "keyfindings review: %d record(s) need review; re-read each claim, then run `keyfindings review --accept`\n", failing)
		return errFailed
	}
	return nil
}

// olderThanReviewed refuses an accept that would give a reviewed entry
// the facts of checked's commit, or drop it, when its claim was checked
// against code at a newer commit (Extractor.Newer): the newer commit's
// records would then be flagged. Where this copy of the repository lacks
// the history to tell (a shallow copy, such as the URL cache's first
// fetch of a tag), two release tags are ordered by their versions (a pin
// moved from v1.18.3 to v1.19.0 is accepted, v1.17.0 is refused); for
// other refs it refuses. It names the first such entry.
func olderThanReviewed(x *locate.Extractor, snap source.Snapshot, checked findings.CheckedCode, replaced []review.Replaced) error {
	for _, r := range replaced {
		what := "replace the facts of"
		if r.Dropped {
			what = "drop the facts of"
		}
		for _, c := range r.Checked {
			newer, err := x.Newer(snap, c.Commit, checked.Commit)
			if errors.Is(err, locate.ErrHistoryMissing) {
				if order, ok := releaseOrder(c.At, checked.At); ok {
					newer, err = order > 0, nil
				}
			}
			if errors.Is(err, locate.ErrHistoryMissing) {
				return fmt.Errorf("--accept at %s would %s %s (%s), reviewed at %s, but %v; use a copy with full history, or pass --force to replace them", checked.At, what, r.Key, r.Definition, c.At, err)
			}
			if err != nil {
				return err
			}
			if newer {
				return fmt.Errorf("--accept at %s would %s %s (%s), reviewed at the newer %s; run review at the newest commit you re-read, or pass --force to replace them", checked.At, what, r.Key, r.Definition, c.At)
			}
		}
	}
	return nil
}

// releaseOrder compares the release tags two checked versions were read
// at (the ref part of their labels, findings.SourceLabel): +1 when a's is
// the later version, -1 when b's, 0 when equal; false when either label
// names no release tag (a branch, a commit, a plain directory).
func releaseOrder(a, b string) (int, bool) {
	va, ok := labelRelease(a)
	if !ok {
		return 0, false
	}
	vb, ok := labelRelease(b)
	if !ok {
		return 0, false
	}
	return va.Compare(vb), true
}

func labelRelease(label string) (releases.Version, bool) {
	ref, _, _ := strings.Cut(label, " (")
	if !strings.HasPrefix(ref, "v") {
		return "", false
	}
	return releases.ParseVersion(ref)
}

// findDefsDir looks for findings/defs in the working directory and its
// parents, so `review --accept` run anywhere inside a checkout of
// keyfindings finds the catalog's files.
func findDefsDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		cand := filepath.Join(dir, filepath.FromSlash(defsDir))
		if info, err := os.Stat(cand); err == nil && info.IsDir() {
			if m, _ := filepath.Glob(filepath.Join(cand, "*.yaml")); len(m) > 0 {
				return cand, nil
			}
		} else if err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return "", fmt.Errorf("--accept: no %s directory with definitions in %s or its parents; run inside the keyfindings repository or give --defs DIR", defsDir, wd)
}
