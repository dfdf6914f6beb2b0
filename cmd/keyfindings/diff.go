package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/keyfindings/keyfindings/diff"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/route"
)

func runDiff(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("diff", stderr)
	fs.Usage = commandUsage(fs, "keyfindings diff [flags] A B", "A and B are refs in --repo or findings.json files written by keyfindings build. "+
		"Per finding: unchanged; moved (same bytes, other lines or path); changed (bytes or facts); "+
		"added (no record in A); found (in A but not located there); removed (no record in B); "+
		"lost (located in A, not in B); missing (located in neither).")
	var src sourceFlags
	src.registerRepo(fs) // the refs are the arguments: no --ref
	format := fs.String("format", "text", "output format: text, md (for a pull-request comment) or json")
	exitCode := fs.Bool("exit-code", false, "exit 1 when anything differs between A and B (a finding missing on both sides for the same reason does not), like git diff --exit-code")
	changed := fs.Bool("changed", false, "show only the findings that differ, or one line when none does (default for --format md; --changed=false shows all)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 2 {
		return usagef("want two refs or findings.json files, got %d arguments (usage: keyfindings diff [--repo R] A B)", len(rest))
	}
	switch *format {
	case "text", "md", "json":
	default:
		return usagef("--format %q: want text, md or json", *format)
	}
	opts := diff.ReportOptions{Changed: *changed}
	if !flagGiven(fs, "changed") && *format == "md" {
		opts.Changed = true
	}
	docs, err := loadSides(&src, rest, stderr)
	if err != nil {
		return err
	}
	d := diff.Compare(docs[0], docs[1])
	cfg, err := route.ParseConfig(findings.RoutesData(), "findings/routes.yaml")
	if err != nil {
		return err
	}
	route.CompareRoutes(d, cfg)
	if !src.quiet {
		fmt.Fprintf(stderr, "keyfindings: compared %s with %s\n", findings.SourceLabel(docs[0].Source), findings.SourceLabel(docs[1].Source))
	}
	switch *format {
	case "text":
		err = d.WriteText(stdout, opts)
	case "md":
		err = d.WriteMarkdown(stdout, opts)
	case "json":
		var data []byte
		if data, err = d.MarshalIndent(opts); err == nil {
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
		res, err := src.extractAt(ctx, o, x, args[i])
		if err != nil {
			return nil, err
		}
		docs[i] = res.Document
	}
	return docs, nil
}
