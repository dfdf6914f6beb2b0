package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/keyfindings/keyfindings/cite"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/mdtext"
)

func runCite(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("cite", stderr)
	fs.Usage = commandUsage(fs, "keyfindings cite [flags] ID", "Prints the citation of finding ID at --ref (default: the pin's tag when the repository holds it, else HEAD): [<path> L<a>–<b> @<commit>](<permalink>) · SHA-256 <hex>… · ID")
	var src sourceFlags
	src.register(fs)
	format := fs.String("format", "md", "output format: md (the citation line), url (the permalink) or json (the record)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("want one finding id, got %d arguments (usage: keyfindings cite ID [--ref REF])", len(rest))
	}
	switch *format {
	case "md", "url", "json":
	default:
		return usagef("--format %q: want md, url or json", *format)
	}
	id := rest[0]
	_, res, err := src.extractOne(stderr)
	if err != nil {
		return err
	}
	doc := res.Document
	r := doc.Find(id)
	if r == nil {
		return fmt.Errorf("no finding %q at %s; `keyfindings list` shows the definition ids (a definition with expect: all gives <id>-<key> records)", id, findings.SourceLabel(doc.Source))
	}
	c, err := cite.Record(doc, r)
	if err != nil {
		return fmt.Errorf("%v (at %s)", err, findings.SourceLabel(doc.Source))
	}
	if r.Review != nil {
		fmt.Fprintf(stderr, "keyfindings cite: warning: %s is flagged for review %s (%s); re-read its claim before relying on it, then `keyfindings review --accept`\n", id, readLabel(doc), mdtext.OneLine(*r.Review))
	} else if c := r.CodeDiffers; c != nil {
		fmt.Fprintf(stderr, "keyfindings cite: note: %s's claim was checked against other code (last at %s); its facts are unchanged, but re-read the claim against these lines before relying on it\n", id, mdtext.OneLine(c.At))
	}
	if !src.quiet {
		fmt.Fprintf(stderr, "keyfindings: cited %s %s\n", id, readLabel(doc))
	}
	switch *format {
	case "md":
		fmt.Fprintln(stdout, c.Short().Format())
	case "url":
		if r.Location.Permalink == "" {
			return fmt.Errorf("finding %s has no permalink: the source is a plain directory, not a commit (use --format md)", id)
		}
		fmt.Fprintln(stdout, r.Location.Permalink)
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return nil
}
