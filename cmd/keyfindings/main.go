// Command keyfindings extracts cited key findings from opencode's source
// and publishes them as a static site.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/keyfindings/keyfindings/findings"
)

// usageError marks a mistake in the command line (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// errFailed reports a run whose result is a failure (exit 1) and that has
// already said why.
var errFailed = errors.New("failed")

type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"build", "extract one commit's findings and write the site", runBuild},
		{"releases", "build every release tag's findings and an index of what changed", runReleases},
		{"list", "list the finding definitions", runList},
		{"diff", "compare the findings of two refs or two findings.json files", runDiff},
		{"cite", "print one finding's citation (Markdown, permalink or record)", runCite},
		{"verify", "check citations (or a findings.json) against the source", runVerify},
		{"serve", "serve a built site on a local address for a look", runServe},
		{"route", "which prompt file, tools and token budget the extracted rules give a model", runRoute},
		{"log", "list the commits at which one finding's record changed", runLog},
		{"review", "list records whose facts differ from the reviewed ones; --accept records them", runReview},
		{"version", "print the keyfindings version (also: keyfindings --version)", runVersion},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		args = append([]string{"version"}, args[1:]...)
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdout, stderr)
		var ue *usageError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "keyfindings %s: %s\n", c.name, errorLine(err))
			return 2
		case errors.Is(err, errFailed):
			return 1
		default:
			fmt.Fprintf(stderr, "keyfindings %s: %s\n", c.name, errorLine(err))
			return 1
		}
	}
	fmt.Fprintf(stderr, "keyfindings: unknown command %q; run `keyfindings help` for the list\n", args[0])
	return 2
}

// runVersion prints the version that findings.json records as
// keyfindings.version.
func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", stderr)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected argument %q (version takes no arguments)", rest[0])
	}
	fmt.Fprintf(stdout, "keyfindings %s\n", findings.Version)
	return nil
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: keyfindings <command> [flags]")
	fmt.Fprintln(w)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run `keyfindings <command> -h` for a command's flags.")
}

// newFlags returns a flag set whose errors become usage errors.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("keyfindings "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args, allowing flags after positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(out)
				fs.Usage()
				return nil, err
			}
			return nil, usagef("%v (run with -h for the flags)", err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// flagGiven reports whether the command line set the named flag.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
