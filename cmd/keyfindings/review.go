package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/review"
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
	accept := fs.Bool("accept", false, "rewrite the reviewed section of each flagged definition with the facts found (after re-reading its claim)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected argument %q (review takes flags only)", rest[0])
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
	cat, res, err := src.extractOne(stderr)
	if err != nil {
		return err
	}
	flags := review.Reviews(cat, res.Document)
	if !src.quiet {
		fmt.Fprintf(stderr, "keyfindings: %d record(s) flagged for review %s\n", len(flags), readLabel(res.Document))
	}
	for _, f := range flags {
		fmt.Fprintf(stdout, "%s\t%s\n", f.ID, f.Review)
		for _, l := range diff.FactLines(f.Changes) {
			fmt.Fprintf(stdout, "    %s\n", l)
		}
	}
	if *accept {
		written, err := review.AcceptReviews(src.defs, cat, res.Document)
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
	if len(flags) > 0 {
		fmt.Fprintf(stderr, "keyfindings review: %d record(s) need review; re-read each claim, then run `keyfindings review --accept`\n", len(flags))
		return errFailed
	}
	return nil
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
