package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/keyfindings/keyfindings/extract"
	"github.com/keyfindings/keyfindings/findings"
)

// verifyItem is one citation to check, or one that failed to parse.
type verifyItem struct {
	text     string
	citation findings.Citation
	// excerpt is the record's excerpt, for citations from a findings.json.
	excerpt *string
	err     error
}

func runVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("verify", stderr)
	fs.Usage = commandUsage(fs, "keyfindings verify [flags] FILE-OR-CITATION…", "Checks each citation (in a findings.json, a Markdown file, or given as text or a permalink) at its own commit, or with --ref whether the cited lines are still there: ok, moved, changed.")
	var src sourceFlags
	src.registerRef(fs)
	src.registerSource(fs)
	src.registerWebURL(fs) // the new citation of a moved one
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("want a findings.json, a Markdown file with citations, or citations (usage: keyfindings verify [--ref REF] FILE-OR-CITATION…)")
	}
	var items []verifyItem
	for _, arg := range rest {
		got, err := verifyInputs(arg, stderr)
		if err != nil {
			return err
		}
		items = append(items, got...)
	}
	if len(items) == 0 {
		return errors.New("nothing to verify: the inputs hold no located findings or citations")
	}
	o, err := src.open(context.Background(), stderr)
	if err != nil {
		return err
	}
	defer o.Close()
	v, err := extract.NewVerifier(o, src.ref)
	if err != nil {
		return err
	}
	failed := false
	for _, it := range items {
		if it.err != nil {
			fmt.Fprintf(stdout, "error %s: %s\n", it.text, oneLine(it.err.Error()))
			failed = true
			continue
		}
		vd := v.Verify(it.citation, it.excerpt)
		old := it.citation.Short().Format()
		switch vd.Status {
		case extract.VerifyOK:
			shown := old
			if vd.New != nil && it.citation.Hash == "" {
				// A bare permalink: show the full citation it stands for.
				shown = vd.New.Short().Format()
			}
			fmt.Fprintf(stdout, "ok  %s\n", shown)
		case extract.VerifyMoved:
			line := fmt.Sprintf("moved %s → %s", old, vd.New.Short().Format())
			if vd.Reason != "" {
				line += " (" + vd.Reason + ")"
			}
			fmt.Fprintln(stdout, line)
			failed = true
		default:
			fmt.Fprintf(stdout, "%s %s: %s\n", vd.Status, old, oneLine(vd.Reason))
			failed = true
		}
	}
	if failed {
		return errFailed
	}
	return nil
}

// verifyInputs turns one argument into citations: a findings.json (each
// located record, checked against its full sha256 and excerpt), another
// file (read as Markdown and scanned for citations), or a citation or
// permalink given as text.
func verifyInputs(arg string, stderr io.Writer) ([]verifyItem, error) {
	info, statErr := os.Stat(arg)
	if statErr == nil && info.Mode().IsRegular() {
		if strings.HasSuffix(arg, ".json") {
			return documentItems(arg, stderr)
		}
		data, err := os.ReadFile(arg)
		if err != nil {
			return nil, err
		}
		found := findings.FindCitations(string(data))
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no citations in the cite format ([<path> L<a>–<b> @<commit>](<permalink>) · SHA-256 <hex>…)", arg)
		}
		var items []verifyItem
		for _, f := range found {
			items = append(items, verifyItem{text: f.Text, citation: f.Citation, err: f.Err})
		}
		return items, nil
	}
	c, err := findings.ParseCitation(arg)
	if err != nil {
		if statErr == nil {
			return nil, usagef("%s is a directory, not a findings.json, Markdown file or citation", arg)
		}
		if !strings.ContainsAny(arg, "[`:") {
			return nil, usagef("%s: no such file, and not a citation", arg)
		}
		return nil, usagef("%v", err)
	}
	return []verifyItem{{text: arg, citation: c}}, nil
}

func documentItems(file string, stderr io.Writer) ([]verifyItem, error) {
	doc, err := findings.ReadDocument(file)
	if err != nil {
		return nil, err
	}
	var items []verifyItem
	for _, r := range doc.Findings {
		c, err := findings.CiteRecord(doc, r)
		switch {
		case err != nil && !r.Located():
			// Not located: the record cites nothing to check.
			fmt.Fprintf(stderr, "keyfindings verify: %s: skipped: %v\n", file, err)
			continue
		case err != nil:
			// Located, but its citation contradicts the document.
			items = append(items, verifyItem{text: r.ID, err: err})
			continue
		}
		items = append(items, verifyItem{text: r.ID, citation: c, excerpt: r.Excerpt})
	}
	return items, nil
}
