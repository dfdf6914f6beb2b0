package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/keyfindings/keyfindings/findings"
)

func runDiff(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("diff", stderr)
	fs.Usage = commandUsage(fs, "keyfindings diff [flags] A B", "A and B are refs in --repo (--ref is not used) or findings.json files. Statuses: unchanged, moved, changed, added, removed, missing.")
	var src sourceFlags
	src.register(fs)
	format := fs.String("format", "text", "output format: text, md (for a pull-request comment) or json")
	exitCode := fs.Bool("exit-code", false, "exit 1 when anything differs between A and B (a finding missing on both sides for the same reason does not), like git diff --exit-code")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 2 {
		return usagef("want two refs or findings.json files, got %d arguments (usage: keyfindings diff [--repo R] A B)", len(rest))
	}
	if src.ref != "" {
		return usagef("diff takes the two refs as arguments A and B, not --ref")
	}
	switch *format {
	case "text", "md", "json":
	default:
		return usagef("--format %q: want text, md or json", *format)
	}
	docs, err := loadSides(&src, rest, stderr)
	if err != nil {
		return err
	}
	d := findings.Compare(docs[0], docs[1])
	if !src.quiet {
		fmt.Fprintf(stderr, "keyfindings: compared %s with %s\n", findings.SourceLabel(docs[0].Source), findings.SourceLabel(docs[1].Source))
	}
	switch *format {
	case "text":
		err = d.WriteText(stdout)
	case "md":
		err = d.WriteMarkdown(stdout)
	case "json":
		var data []byte
		if data, err = d.MarshalIndent(); err == nil {
			_, err = stdout.Write(data)
		}
	}
	if err != nil {
		return err
	}
	if *exitCode && d.Changed() {
		return errFailed
	}
	return nil
}

// commandUsage prints a usage line, a sentence and the flags.
func commandUsage(fs *flag.FlagSet, usage, help string) func() {
	return func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: %s\n\n%s\n\nFlags:\n", usage, help)
		fs.PrintDefaults()
	}
}

// isDocumentArg reports whether a diff argument names a findings.json
// rather than a ref: it ends in .json. Such a file must exist.
func isDocumentArg(arg string) (bool, error) {
	if !strings.HasSuffix(arg, ".json") {
		return false, nil
	}
	info, err := os.Stat(arg)
	if err != nil {
		return false, fmt.Errorf("%s: no such findings.json (an argument ending in .json is read as a file, not a ref)", arg)
	}
	if !info.Mode().IsRegular() {
		return false, fmt.Errorf("%s is not a regular file", arg)
	}
	return true, nil
}

// loadSides reads each argument as a findings.json, or extracts it as a
// ref. All refs share one extractor, so a blob common to both is parsed
// once; the source is opened only when a ref needs it.
func loadSides(src *sourceFlags, args []string, stderr io.Writer) ([]*findings.Document, error) {
	docs := make([]*findings.Document, len(args))
	var refs []int
	for i, a := range args {
		isDoc, err := isDocumentArg(a)
		if err != nil {
			return nil, err
		}
		if !isDoc {
			refs = append(refs, i)
			continue
		}
		if docs[i], err = findings.ReadDocument(a); err != nil {
			return nil, err
		}
	}
	if len(refs) == 0 {
		return docs, nil
	}
	_, x, err := src.catalog()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	o, err := src.open(ctx, stderr)
	if err != nil {
		return nil, err
	}
	defer o.Close()
	for _, i := range refs {
		if err := o.Ensure(ctx, args[i]); err != nil {
			return nil, err
		}
		res, err := extractAt(o, x, args[i])
		if err != nil {
			return nil, err
		}
		docs[i] = res.Document
	}
	return docs, nil
}
