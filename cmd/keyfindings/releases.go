package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/keyfindings/keyfindings/internal/buildid"
	"github.com/keyfindings/keyfindings/locate"
	"github.com/keyfindings/keyfindings/releases"
	"github.com/keyfindings/keyfindings/site"
	"github.com/keyfindings/keyfindings/source"
)

// onExtract is called with each release tag that is extracted rather than
// reused (a hook for the tests).
var onExtract = func(tag string) {}

func runReleases(args []string, stdout, stderr io.Writer) error {
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
	dir, notes, err := site.OpenReleasesDir(*out, *force, releases.CompareReleaseTags, opts)
	if err != nil {
		return err
	}
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
	// Git reads stay on one goroutine (go-git repositories are not safe
	// for concurrent use); one Extractor serves every release, so a blob
	// that several releases share is parsed once.
	for i, t := range chosen {
		if ctx.Err() != nil {
			return errors.Join(fmt.Errorf("interrupted after %d of %d releases; %s keeps those, and a rerun reuses them", i, len(chosen), *out), dir.Flush())
		}
		start := time.Now()
		how, commit, err := putRelease(ctx, dir, o, x, key, t.Name, commits[t.Name])
		if err != nil {
			// The releases written so far stay, listed by the index.
			return errors.Join(fmt.Errorf("release %s: %w", t.Name, err), dir.Flush())
		}
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

// putRelease writes the release tag into dir: left as it is ("up to
// date") when dir holds it as this run would write it from commit (the
// commit the tag names, if known without resolving it: "" otherwise), its
// pages rendered again from the records in dir ("reused") when it was
// built there from the same commit with key, else extracted. It returns
// how, for the progress line, and the commit the tag names.
func putRelease(ctx context.Context, dir *site.ReleasesDir, o source.Source, x *locate.Extractor, key site.ReleasesKey, tag, commit string) (how, _ string, err error) {
	if commit != "" && dir.Current(key, tag, commit) {
		return "up to date", commit, nil
	}
	at, err := o.At(ctx, tag)
	if err != nil {
		return "", "", err
	}
	if commit == "" && dir.Current(key, tag, at.Commit) {
		return "up to date", at.Commit, nil
	}
	rel, why := dir.Reuse(key, tag, at.Commit)
	how = "reused"
	if rel == nil {
		onExtract(tag)
		res, err := x.Extract(at.Snapshot, locate.Meta{Repo: o.WebURL(), Ref: at.Ref, WebURL: at.WebURL})
		if err != nil {
			return "", "", err
		}
		rel = &site.Release{Tag: tag, Document: res.Document, License: res.License}
		how = "extracted (" + why + ")"
	}
	return how, at.Commit, dir.Put(*rel, at.Commit, key)
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
