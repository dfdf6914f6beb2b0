package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/keyfindings/keyfindings/internal/buildid"
	"github.com/keyfindings/keyfindings/internal/cmem"
	"github.com/keyfindings/keyfindings/locate"
	"github.com/keyfindings/keyfindings/releases"
	"github.com/keyfindings/keyfindings/site"
	"github.com/keyfindings/keyfindings/source"
)

// onExtract is called with each release tag that is extracted rather than
// reused, and onPut with each release tag about to be written into the
// directory (hooks for the tests).
var (
	onExtract = func(tag string) {}
	onPut     = func(tag string) {}
)

// releasesGCPercent is the garbage collector's target for a releases
// run when GOGC does not set one: a run allocates about a hundred
// megabytes a release and holds little between releases, and with the
// next release extracted while one is rendered, the default (100) let
// the peak RSS of v1.15.0..v1.18.3 from an empty cache reach 325 MiB;
// at 50 it stays under 280 MiB for no measurable CPU.
const releasesGCPercent = 50

// releasesMemoryLimit is the Go runtime's soft memory limit for a
// releases run when GOMEMLIMIT does not set one: with it the collector
// runs more often as the heap nears the limit instead of letting it grow
// to 1.5 times what is live. Over v1.0.0..v1.18.3 from an empty cache,
// 160 MiB took the peak RSS from 302 to 237 MiB for 25% more CPU; 192 MiB
// keeps the peak of all 982 tags near 300 MB for less.
const releasesMemoryLimit = 192 << 20

// commandGC sets the collector's target for one command's run to
// percent, unless GOGC is set, and its soft memory limit to limit, unless
// GOMEMLIMIT is set, and returns what restores them.
func commandGC(percent int, limit int64) (restore func()) {
	restorePercent := gcPercent(percent)
	prevLimit := int64(-1)
	if os.Getenv("GOMEMLIMIT") == "" {
		prevLimit = debug.SetMemoryLimit(limit)
	}
	return func() {
		restorePercent()
		if prevLimit >= 0 {
			debug.SetMemoryLimit(prevLimit)
		}
	}
}

// gcPercent sets the collector's target to percent for one command,
// unless GOGC is set, and returns what restores it.
func gcPercent(percent int) (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	prev := debug.SetGCPercent(percent)
	return func() { debug.SetGCPercent(prev) }
}

func runReleases(args []string, stdout, stderr io.Writer) error {
	defer commandGC(releasesGCPercent, releasesMemoryLimit)()
	fs := newFlags("releases", stderr)
	fs.Usage = commandUsage(fs, "keyfindings releases [flags] --out DIR",
		"Builds the key findings of every release tag in range, in semver order, into DIR/<tag>/ (as build writes them), "+
			"and DIR/index.html: the releases newest first with what changed since the one before, and a picture of findings × releases. "+
			"Releases already built in DIR from the same commit, definitions and keyfindings build are reused, not extracted again; "+
			"releases in DIR outside the range stay unless --prune is given. Each release is written as soon as it is done, "+
			"so an interrupted run keeps the ones it finished.")
	var src sourceFlags
	src.registerRepo(fs) // the releases are the refs: no --ref
	from := fs.String("from", "", "oldest release tag to include (default: the oldest release)")
	to := fs.String("to", "", "newest release tag to include (default: the newest release)")
	match := fs.String("match", releases.DefaultMatch, "glob (path.Match) on tag names choosing the releases; when given, pre-releases and prefixed names that carry a version (vscode-v1.2.3) count too")
	out := fs.String("out", "", "output directory (required)")
	force := fs.Bool("force", false, "replace a non-empty --out that is not a releases directory (a site written by build, or one keyfindings did not write)")
	prune := fs.Bool("prune", false, "remove the releases in --out that are outside the range")
	tmplDir := fs.String("templates", "", "directory of templates that replace the built-in ones file by file")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected argument %q (releases takes flags only)", rest[0])
	}
	if *out == "" {
		return usagef("--out DIR is required (the directory that gets DIR/index.html and DIR/<tag>/)")
	}
	matchGiven := false
	fs.Visit(func(f *flag.Flag) { matchGiven = matchGiven || f.Name == "match" })
	var opts site.Options
	if *tmplDir != "" {
		if opts.Templates, err = site.TemplateDir(*tmplDir); err != nil {
			return err
		}
	}
	// The output directory's manifest (megabytes of JSON with a thousand
	// releases) is read while the catalog loads; opening writes nothing.
	type opened struct {
		dir   *site.ReleasesDir
		notes []string
		err   error
	}
	openDir := make(chan opened, 1)
	go func() {
		dir, notes, err := site.OpenReleasesDir(*out, *force, releases.CompareReleaseTags, opts)
		openDir <- opened{dir, notes, err}
	}()
	cat, x, err := src.catalog()
	if err != nil {
		return err
	}
	catalog, err := cat.Fingerprint()
	if err != nil {
		return err
	}
	tool, err := buildid.ID()
	if err != nil {
		return err
	}
	od := <-openDir
	dir, notes := od.dir, od.notes
	if od.err != nil {
		return od.err
	}
	dir.KeepStamps(site.LoadStamps(src.stampsFile(*out)))
	for _, note := range notes {
		if !src.quiet {
			fmt.Fprintf(stderr, "keyfindings: %s\n", note)
		}
	}
	// An interrupt stops the run between two releases, so the one being
	// written is finished or not started and no temporary files stay.
	// A second interrupt kills as usual.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }()
	o, err := src.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer o.Close()
	tags, err := o.Tags(ctx)
	if errors.Is(err, source.ErrPlainDirectory) {
		return fmt.Errorf("--repo %s is a plain directory, which has no release tags; point --repo at a git repository", src.repo)
	}
	if err != nil {
		return err
	}
	repo, err := o.Repository()
	if err != nil {
		return err
	}
	chosen, err := releases.SelectReleases(tags, releases.Selection{Match: *match, MatchGiven: matchGiven, From: *from, To: *to})
	if err != nil {
		return err
	}
	for _, t := range chosen {
		if err := site.CheckReleaseTag(t.Name); err != nil {
			return err
		}
	}

	key := site.ReleasesKey{Tool: tool, Catalog: catalog, Repo: o.WebURL()}
	names := make([]string, len(chosen))
	for i, t := range chosen {
		names[i] = t.Name
	}
	dir.Plan(names, *prune)
	commits := tagCommits(repo)
	reused := 0
	var firstCommit, lastCommit string
	began := time.Now()
	// The records of the next release are read from git and extracted
	// while the one before is rendered and written (two stages, so two
	// cores). Git reads stay on one goroutine at a time (go-git
	// repositories are not safe for concurrent use): g guards them. One
	// Extractor serves every release, so a blob that several releases
	// share is parsed once.
	g := &gitReader{ctx: ctx, o: o, x: x, key: key, commits: commits}
	next, stopReading := g.readAhead(dir, chosen)
	defer stopReading()
	interrupted := func(i int) error {
		return errors.Join(fmt.Errorf("interrupted after %d of %d releases; %s keeps those, and a rerun reuses them", i, len(chosen), *out), dir.Flush())
	}
	for i, t := range chosen {
		if ctx.Err() != nil {
			return interrupted(i)
		}
		start := time.Now()
		a := <-next
		if ctx.Err() != nil {
			return interrupted(i)
		}
		how, commit, err := g.put(dir, a)
		if err != nil {
			// The releases written so far stay, listed by the index.
			return errors.Join(fmt.Errorf("release %s: %w", t.Name, err), dir.Flush())
		}
		// The syntax trees of the releases read so far are freed; what C's
		// malloc keeps of them would otherwise add up to tens of MB.
		cmem.Trim()
		if i == 0 {
			firstCommit = commit
		}
		lastCommit = commit
		if how == "reused" || how == "up to date" {
			reused++
		}
		if !src.quiet {
			fmt.Fprintf(stderr, "keyfindings: %d/%d %s %s in %s, %s elapsed\n", i+1, len(chosen), t.Name, how, time.Since(start).Round(time.Millisecond), time.Since(began).Round(100*time.Millisecond))
		}
	}
	others := outside(dir.Tags(), chosen)
	if *prune {
		for _, tag := range others {
			if err := dir.Remove(tag); err != nil {
				return err
			}
		}
		if len(others) > 0 {
			fmt.Fprintf(stderr, "keyfindings: removed %s outside the range (--prune): %s\n", site.Count(len(others), "release"), strings.Join(others, " "))
		}
	}
	if err := dir.Finish(); err != nil {
		return err
	}
	if !src.quiet {
		fmt.Fprintf(stderr, "keyfindings: %s, %s (%s) to %s (%s) (%d extracted, %d reused); wrote %s\n",
			site.Count(len(chosen), "release"), chosen[0].Name, shortCommit(firstCommit), chosen[len(chosen)-1].Name, shortCommit(lastCommit), len(chosen)-reused, reused, *out)
		if !*prune && len(others) > 0 {
			fmt.Fprintf(stderr, "keyfindings: kept %s outside the range: %s (--prune removes them)\n", site.Count(len(others), "release"), strings.Join(others, " "))
		}
	}
	return nil
}

// gitReader reads releases from git for a releases run: ahead of their
// turn, on their own goroutine, and, when a release the directory listed
// turns out to need extracting after all, on the writer's. mu keeps the
// two from reading git at once.
type gitReader struct {
	ctx context.Context
	o   source.Source
	x   *locate.Extractor
	key site.ReleasesKey
	// commits are the commits the tags name, when known without
	// resolving them (tagCommits).
	commits map[string]string
	mu      sync.Mutex
}

// aheadRelease is a release tag read before its turn to be written: its
// commit and records (extracted, how says why), or no records when the
// directory lists it as built from that commit (the writer then finds
// whether it is up to date or can be reused).
type aheadRelease struct {
	tag, commit string
	rel         *site.Release
	how         string
	err         error
}

// readAhead reads the releases tags in order on a goroutine of its own,
// one release ahead of the writer, which receives them from next. stop
// ends the reading (after the release being read) and waits for it; it
// may be called more than once.
func (g *gitReader) readAhead(dir *site.ReleasesDir, tags []releases.ReleaseTag) (next <-chan aheadRelease, stop func()) {
	out := make(chan aheadRelease)
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, t := range tags {
			a := g.read(dir, t.Name)
			select {
			case out <- a:
			case <-quit:
				return
			}
			if a.err != nil {
				return
			}
		}
	}()
	var once sync.Once
	return out, func() {
		once.Do(func() { close(quit) })
		<-done
	}
}

// read reads the release tag ahead of its turn: its commit, and its
// records unless dir lists it as built from that commit with the run's
// key (Listed reads only what dir read at open, so it may run beside the
// writer).
func (g *gitReader) read(dir *site.ReleasesDir, tag string) aheadRelease {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.ctx.Err(); err != nil {
		return aheadRelease{tag: tag, err: err}
	}
	if c := g.commits[tag]; c != "" && dir.Listed(g.key, tag, c) {
		return aheadRelease{tag: tag, commit: c}
	}
	at, err := g.o.At(g.ctx, tag)
	if err != nil {
		return aheadRelease{tag: tag, err: err}
	}
	if dir.Listed(g.key, tag, at.Commit) {
		return aheadRelease{tag: tag, commit: at.Commit}
	}
	_, why := dir.Reuse(g.key, tag, at.Commit) // not listed: only the reason
	rel, err := g.extract(at, tag)
	return aheadRelease{tag: tag, commit: at.Commit, rel: rel, how: "extracted (" + why + ")", err: err}
}

// extract extracts the records of the release tag at at; the caller
// holds g.mu.
func (g *gitReader) extract(at *source.Resolved, tag string) (*site.Release, error) {
	onExtract(tag)
	res, err := g.x.Extract(at.Snapshot, locate.Meta{Repo: g.o.WebURL(), Ref: at.Ref, WebURL: at.WebURL})
	if err != nil {
		return nil, err
	}
	return &site.Release{Tag: tag, Document: res.Document, License: res.License}, nil
}

// put writes the release a into dir: left as it is ("up to date") when
// dir holds it as this run would write it, its pages rendered again
// from the records in dir ("reused") when it was built there from the
// same commit with the run's key, else extracted (ahead, by read, or
// now). It returns how, for the progress line, and the release's commit.
func (g *gitReader) put(dir *site.ReleasesDir, a aheadRelease) (how, commit string, err error) {
	if a.err != nil {
		return "", "", a.err
	}
	rel, how := a.rel, a.how
	if rel == nil {
		if dir.Current(g.key, a.tag, a.commit) {
			return "up to date", a.commit, nil
		}
		var why string
		if rel, why = dir.Reuse(g.key, a.tag, a.commit); rel != nil {
			how = "reused"
		} else if rel, err = g.extractNow(a.tag); err != nil {
			return "", "", err
		} else {
			how = "extracted (" + why + ")"
		}
	}
	onPut(a.tag)
	return how, a.commit, dir.Put(*rel, a.commit, g.key)
}

// extractNow extracts the release tag on the writer's goroutine.
func (g *gitReader) extractNow(tag string) (*site.Release, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	at, err := g.o.At(g.ctx, tag)
	if err != nil {
		return nil, err
	}
	return g.extract(at, tag)
}

// tagCommits maps the tags of repo to the commits they name, read in one
// pass over the references: resolving a tag at a time reads the whole
// packed-refs file each time, which over a thousand tags costs seconds.
// A tag that names anything but a commit, directly or through one tag
// object, is left out (putRelease resolves it as a build does).
func tagCommits(repo *git.Repository) map[string]string {
	commits := map[string]string{}
	if repo == nil {
		return commits
	}
	iter, err := repo.Tags()
	if err != nil {
		return commits
	}
	defer iter.Close()
	_ = iter.ForEach(func(ref *plumbing.Reference) error {
		h := ref.Hash()
		if tag, err := repo.TagObject(h); err == nil {
			if tag.TargetType != plumbing.CommitObject {
				return nil
			}
			h = tag.Target
		} else if _, err := repo.CommitObject(h); err != nil {
			return nil
		}
		commits[ref.Name().Short()] = h.String()
		return nil
	})
	return commits
}

// shortCommit is the 7-digit form of a commit id, for summary lines.
func shortCommit(c string) string {
	if len(c) > 7 {
		return c[:7]
	}
	return c
}

// outside returns the tags that are not among chosen, in their order.
func outside(tags []string, chosen []releases.ReleaseTag) []string {
	in := map[string]bool{}
	for _, t := range chosen {
		in[t.Name] = true
	}
	var rest []string
	for _, tag := range tags {
		if !in[tag] {
			rest = append(rest, tag)
		}
	}
	return rest
}

// stampsFile is where the stamps of the releases directory out are kept
// (see site.Stamps): in the cache directory, named by out's absolute
// path; "" (memory only) without a cache directory.
func (s *sourceFlags) stampsFile(out string) string {
	abs, err := filepath.Abs(out)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(abs))
	if f := s.cacheFile("releases"); f != "" {
		return filepath.Join(f, hex.EncodeToString(sum[:16])+".json")
	}
	return ""
}
