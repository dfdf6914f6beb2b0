package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/keyfindings/keyfindings/cite"
	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/locate"
	"github.com/keyfindings/keyfindings/site"
	"github.com/keyfindings/keyfindings/source"
)

// sourceFlags are the flags every command that reads opencode shares.
type sourceFlags struct {
	repo, ref, cache, webURL, defs string
	quiet                          bool
	timeout                        time.Duration
}

// register registers every source flag: for commands that extract one
// ref and print permalinks (build, cite).
func (s *sourceFlags) register(fs *flag.FlagSet) {
	s.registerRef(fs)
	s.registerRepo(fs)
}

// registerRepo registers the source flags other than --ref, for commands
// that choose their own refs.
func (s *sourceFlags) registerRepo(fs *flag.FlagSet) {
	s.registerSource(fs)
	s.registerWebURL(fs)
	s.registerDefs(fs)
}

// registerRef registers --ref.
func (s *sourceFlags) registerRef(fs *flag.FlagSet) {
	fs.StringVar(&s.ref, "ref", "", "tag, branch or commit to read (default: the pin's ref, or HEAD)")
}

// registerSource registers the flags that say where the source is and how
// to reach it: --repo, --cache, --quiet, --timeout.
func (s *sourceFlags) registerSource(fs *flag.FlagSet) {
	fs.StringVar(&s.repo, "repo", "", "repository URL, local git repository or plain directory (default: the pinned upstream)")
	fs.StringVar(&s.cache, "cache", "", "cache directory for fetched repositories (default: $KEYFINDINGS_CACHE or the user cache dir)")
	fs.BoolVar(&s.quiet, "quiet", false, "no progress output on stderr")
	fs.DurationVar(&s.timeout, "timeout", 15*time.Minute, "give up on network work after this long (0: never)")
}

// registerWebURL registers --web-url, for commands that print permalinks.
func (s *sourceFlags) registerWebURL(fs *flag.FlagSet) {
	fs.StringVar(&s.webURL, "web-url", "", "web URL for permalinks (default: the GitHub URL of the source, else the pin's)")
}

// registerDefs registers --defs, for commands that load the catalog.
func (s *sourceFlags) registerDefs(fs *flag.FlagSet) {
	fs.StringVar(&s.defs, "defs", "", "directory of finding definitions (*.yaml) to use instead of the built-in catalog")
}

// catalog loads the definitions and compiles their queries, before any
// source is read.
func (s *sourceFlags) catalog() (*findings.Catalog, *locate.Extractor, error) {
	cat, err := s.definitions()
	if err != nil {
		return nil, nil, err
	}
	x, err := locate.CompileWith(cat, locate.CompileOptions{CacheDir: s.extractCache()})
	if err != nil {
		return nil, nil, err
	}
	return cat, x, nil
}

// definitions loads and validates the definitions (--defs, else the
// built-in catalog) without compiling their queries.
func (s *sourceFlags) definitions() (*findings.Catalog, error) {
	if s.defs != "" {
		return findings.Load(os.DirFS(s.defs), s.defs)
	}
	return findings.Embedded()
}

// extractCache is where located records are kept between runs: extract/
// in the cache directory, "" (memory only) when there is none.
func (s *sourceFlags) extractCache() string {
	return s.cacheFile("extract")
}

// cacheFile is name in the cache directory, "" when there is none.
func (s *sourceFlags) cacheFile(name string) string {
	dir := s.cache
	if dir == "" {
		var err error
		if dir, err = source.DefaultCacheDir(); err != nil {
			return ""
		}
	}
	return filepath.Join(dir, name)
}

// open opens the source the flags name.
func (s *sourceFlags) open(ctx context.Context, stderr io.Writer) (source.Source, error) {
	if s.webURL != "" && !cite.IsWebURL(s.webURL) {
		return nil, usagef("--web-url %q is not an http(s) URL of a repository (a host, and no query, fragment or /blob/ part); give its web address, such as https://github.com/anomalyco/opencode", s.webURL)
	}
	opts := source.Options{Repo: s.repo, Ref: s.ref, CacheDir: s.cache, WebURL: s.webURL, Pin: findings.DefaultPin(), Timeout: s.timeout}
	if !s.quiet {
		opts.Progress = stderr
	}
	return source.Open(ctx, opts)
}

// extractAt resolves ref in o and runs the catalog there. A snapshot
// without a commit (a plain directory) where nothing is located is the
// wrong directory, not a record of absence: that is an error.
func (s *sourceFlags) extractAt(ctx context.Context, o source.Source, x *locate.Extractor, ref string) (*locate.Result, error) {
	at, err := o.At(ctx, ref)
	if err != nil {
		return nil, err
	}
	res, err := x.Extract(at.Snapshot, locate.Meta{Repo: o.WebURL(), Ref: at.Ref, WebURL: at.WebURL})
	if err == nil && at.Commit == "" && noneFound(res.Document) {
		return nil, fmt.Errorf("--repo %s holds none of opencode's sources (0 of %d findings located); point --repo at an opencode checkout or clone", s.repo, len(res.Document.Findings))
	}
	return res, err
}

// noneFound reports whether no finding of doc matched anywhere: every
// record is missing.
func noneFound(doc *findings.Document) bool {
	for _, r := range doc.Findings {
		if r.Status != findings.StatusMissing {
			return false
		}
	}
	return len(doc.Findings) > 0
}

// extractOne loads the catalog, opens the source and extracts the ref the
// flags name: what build, cite and review all start with.
func (s *sourceFlags) extractOne(stderr io.Writer) (*findings.Catalog, *locate.Result, error) {
	cat, x, err := s.catalog()
	if err != nil {
		return nil, nil, err
	}
	ctx := context.Background()
	o, err := s.open(ctx, stderr)
	if err != nil {
		return nil, nil, err
	}
	defer o.Close()
	res, err := s.extractAt(ctx, o, x, s.ref)
	if err != nil {
		return nil, nil, err
	}
	return cat, res, nil
}

func runBuild(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("build", stderr)
	var src sourceFlags
	src.register(fs)
	out := fs.String("out", defaultOut, "output directory (./"+fallbackOut+" when the default ./"+defaultOut+" is a Go package, as in keyfindings' own source tree)")
	strict := fs.Bool("strict", false, "exit 1 when a finding is missing or ambiguous (absent at this commit is fine)")
	force := fs.Bool("force", false, "replace a non-empty --out that keyfindings did not write")
	tmplDir := fs.String("templates", "", "directory of templates that replace the built-in ones file by file")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected argument %q (build takes flags only)", rest[0])
	}
	*out = outDir(fs, *out, stderr)
	var opts site.Options
	if *tmplDir != "" {
		if opts.Templates, err = site.TemplateDir(*tmplDir); err != nil {
			return err
		}
	}
	_, res, err := src.extractOne(stderr)
	if err != nil {
		return err
	}
	files, err := site.RenderWith(res.Document, res.License, opts)
	if err != nil {
		return err
	}
	located, absent, total := 0, 0, len(res.Document.Findings)
	for _, r := range res.Document.Findings {
		switch {
		case r.Located():
			located++
		case r.Absent():
			absent++
		}
	}
	note := ""
	if absent > 0 {
		note = fmt.Sprintf(" (%d absent at this commit)", absent)
	}
	// A strict build that fails publishes nothing: CI keeps serving the
	// previous site (SPEC §3). Absent is fine: the definition says the
	// finding does not exist at this commit. Only missing and ambiguous
	// findings fail.
	if *strict && located+absent != total {
		for _, r := range res.Document.Findings {
			if !r.Located() && !r.Absent() {
				fmt.Fprintf(stderr, "keyfindings build: %s is %s: %s\n", r.ID, r.Status, r.ProblemText())
			}
		}
		fmt.Fprintf(stderr, "keyfindings build: %d of %d findings located%s %s; --strict: nothing written, %s left as it was\n", located, total, note, readLabel(res.Document), *out)
		return errFailed
	}
	if err := site.WriteDir(*out, files, *force); err != nil {
		return err
	}
	if !src.quiet {
		fmt.Fprintf(stderr, "keyfindings: %d of %d findings located%s %s; wrote %s\n", located, total, note, readLabel(res.Document), *out)
	}
	return nil
}

// The default output directory is ./site (SPEC §6). In keyfindings' own
// repository ./site is the Go package that renders sites, and a build there
// would try to replace it (refused without --force, destroyed with it). So
// when --out is not given and ./site holds .go files, build and serve use
// ./_site instead (ignored by git) and say so on stderr.
const (
	defaultOut  = "site"
	fallbackOut = "_site"
)

// outDir returns the output directory: --out when it was given, else the
// default with the fallback above.
func outDir(fs *flag.FlagSet, out string, stderr io.Writer) string {
	given := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "out" {
			given = true
		}
	})
	if given || !hasGoFiles(defaultOut) {
		return out
	}
	fmt.Fprintf(stderr, "keyfindings: ./%s is a Go package directory (this is keyfindings' source tree); using ./%s instead (pass --out to choose)\n", defaultOut, fallbackOut)
	return fallbackOut
}

// hasGoFiles reports whether dir contains a .go file.
func hasGoFiles(dir string) bool {
	matches, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	return len(matches) > 0
}

func runList(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("list", stderr)
	defs := fs.String("defs", "", "directory of finding definitions (*.yaml) to use instead of the built-in catalog")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected argument %q (list takes flags only)", rest[0])
	}
	src := sourceFlags{defs: *defs}
	cat, _, err := src.catalog()
	if err != nil {
		return err
	}
	for _, d := range cat.Definitions {
		// The newest shape's path: the definition's own, unless each
		// shape names one.
		fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\n", d.ID, d.Page, d.Title, d.Forms()[0].Path)
	}
	return nil
}

// readLabel names the commit a document was read at, for summary lines:
// "at v1.18.3 (127bdb3)", or "in the plain directory".
func readLabel(doc *findings.Document) string {
	if doc.Source.Commit == nil {
		return "in the plain directory"
	}
	return "at " + findings.SourceLabel(doc.Source)
}
