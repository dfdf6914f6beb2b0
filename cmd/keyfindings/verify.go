package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/keyfindings/keyfindings/cite"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/mdtext"
	"github.com/keyfindings/keyfindings/verify"
)

// verifyItem is one citation to check, or one that failed to parse.
type verifyItem struct {
	text     string
	citation cite.Citation
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
	src.registerDefs(fs)   // the catalog that re-locates a citation by its id
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
	ctx := context.Background()
	o, err := src.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer o.Close()
	v, err := verify.NewVerifier(ctx, o, src.ref)
	if err != nil {
		return err
	}
	if src.ref != "" {
		// A citation that names its finding is re-located by the
		// finding's definition when its bytes are gone.
		_, x, err := src.catalog()
		if err != nil {
			return err
		}
		v.RelocateWith(x)
	}
	counts := map[string]int{}
	for _, it := range items {
		status := verifyOne(ctx, stdout, v, it)
		counts[status]++
	}
	fmt.Fprintln(stdout, verifySummary(counts))
	if !src.quiet {
		fmt.Fprintf(stderr, "keyfindings: verified %d citation(s) %s\n", len(items), v.Label())
	}
	if counts[verify.VerifyOK] != len(items) {
		return errFailed
	}
	return nil
}

// verifyOne checks one item, prints its line and returns its status.
func verifyOne(ctx context.Context, stdout io.Writer, v *verify.Verifier, it verifyItem) string {
	if it.err != nil {
		fmt.Fprintf(stdout, "error %s: %s\n", it.text, errorLine(it.err))
		return verify.VerifyError
	}
	vd := v.Verify(ctx, it.citation, it.excerpt)
	old := it.citation.Short().Format()
	switch {
	case vd.Status == verify.VerifyOK:
		fmt.Fprintf(stdout, "ok  %s\n", old)
	case vd.Status == verify.VerifyMoved:
		line := fmt.Sprintf("moved %s → %s", old, vd.New.Short().Format())
		if vd.Reason != "" {
			line += " (" + vd.Reason + ")"
		}
		fmt.Fprintln(stdout, line)
	case vd.Status == verify.VerifyChanged && vd.New != nil:
		fmt.Fprintf(stdout, "changed %s → %s: %s\n", old, vd.New.Short().Format(), mdtext.OneLine(vd.Reason))
	case vd.Status == verify.VerifyError && vd.New != nil:
		// No hash to check: the lines as they are, for the user to check.
		fmt.Fprintf(stdout, "error %s: %s; the lines are %s\n", old, mdtext.OneLine(vd.Reason), vd.New.Short().Format())
	default:
		fmt.Fprintf(stdout, "%s %s: %s\n", vd.Status, old, advise(vd.Reason, vd.Err))
	}
	return vd.Status
}

// verifySummary is verify's last line: "N ok, M moved, K changed", and
// ", E errors" when there are any.
func verifySummary(counts map[string]int) string {
	s := fmt.Sprintf("%d ok, %d moved, %d changed", counts[verify.VerifyOK], counts[verify.VerifyMoved], counts[verify.VerifyChanged])
	if n := counts[verify.VerifyError]; n > 0 {
		s += fmt.Sprintf(", %d error(s)", n)
	}
	return s
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
		found := cite.Find(string(data))
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no citations in the cite format ([<path> L<a>–<b> @<commit>](<permalink>) · SHA-256 <hex>…)", arg)
		}
		var items []verifyItem
		for _, f := range found {
			items = append(items, verifyItem{text: f.Text, citation: f.Citation, err: f.Err})
		}
		return items, nil
	}
	c, err := cite.Parse(arg)
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
		c, err := cite.Record(doc, r)
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
		items = append(items, verifyItem{text: r.ID, citation: c, excerpt: &r.Location.Excerpt})
	}
	return items, nil
}
