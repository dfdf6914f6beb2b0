package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"

	"github.com/keyfindings/keyfindings/extract"
	"github.com/keyfindings/keyfindings/site"
)

// onExtract is called with each release tag that is extracted rather than
// reused (a hook for the tests).
var onExtract = func(tag string) {}

func runReleases(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("releases", stderr)
	fs.Usage = commandUsage(fs, "keyfindings releases [flags] --out DIR",
		"Builds the key findings of every release tag in range, in semver order, into DIR/<tag>/ (as build writes them), "+
			"and DIR/index.html: the releases newest first with what changed since the one before, and a picture of findings × releases. "+
			"Releases already built in DIR from the same commit, definitions and keyfindings build are reused, not extracted again.")
	var src sourceFlags
	src.registerRepo(fs) // the releases are the refs: no --ref
	from := fs.String("from", "", "oldest release tag to include (default: the oldest release)")
	to := fs.String("to", "", "newest release tag to include (default: the newest release)")
	match := fs.String("match", extract.DefaultMatch, "glob (path.Match) on tag names choosing the releases; when given, pre-releases and prefixed names that carry a version (vscode-v1.2.3) count too")
	out := fs.String("out", "", "output directory (required)")
	force := fs.Bool("force", false, "replace a non-empty --out that keyfindings did not write")
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
	tool, err := toolVersion()
	if err != nil {
		return err
	}
	ctx := context.Background()
	o, err := src.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer o.Close()
	if o.Kind == extract.KindDir {
		return fmt.Errorf("--repo %s is a plain directory, which has no release tags; point --repo at a git repository", src.repo)
	}
	tags, err := o.Tags(ctx)
	if err != nil {
		return err
	}
	chosen, err := extract.SelectReleases(tags, extract.Selection{Match: *match, MatchGiven: matchGiven, From: *from, To: *to})
	if err != nil {
		return err
	}
	for _, t := range chosen {
		if err := site.CheckReleaseTag(t.Name); err != nil {
			return err
		}
	}

	manifest, note, err := site.ReadReleasesManifest(*out)
	if err != nil {
		return err
	}
	if note != "" && !src.quiet {
		fmt.Fprintf(stderr, "keyfindings: %s\n", note)
	}
	key := site.ReleasesKey{Tool: tool, Catalog: catalog, Repo: o.WebURL}
	rels := make([]site.Release, len(chosen))
	names := make([]string, len(chosen))
	commits := map[string]string{}
	reused := 0
	// Git reads stay on one goroutine (go-git repositories are not safe
	// for concurrent use); one Extractor serves every release, so a blob
	// that several releases share is parsed once.
	for i, t := range chosen {
		names[i] = t.Name
		at, err := o.At(t.Name)
		if err != nil {
			return err
		}
		commits[t.Name] = at.Commit
		rel, why := manifest.Reuse(*out, key, t.Name, at.Commit)
		if rel != nil {
			rels[i] = *rel
			reused++
			continue
		}
		if !src.quiet {
			fmt.Fprintf(stderr, "keyfindings: extracting %s (%s)\n", t.Name, why)
		}
		onExtract(t.Name)
		res, err := x.Extract(at.Snapshot, extract.Meta{Repo: o.WebURL, Ref: at.Ref, WebURL: o.WebURL})
		if err != nil {
			return fmt.Errorf("release %s: %w", t.Name, err)
		}
		rels[i] = site.Release{Tag: t.Name, Document: res.Document, License: res.License}
	}
	files, err := site.RenderReleases(rels, opts)
	if err != nil {
		return err
	}
	m, err := site.NewReleasesManifest(key, files, names, commits)
	if err != nil {
		return err
	}
	if files[site.ReleasesManifestFile], err = m.Marshal(); err != nil {
		return err
	}
	if err := site.WriteDir(*out, files, *force); err != nil {
		return err
	}
	if !src.quiet {
		first, last := names[0], names[len(names)-1]
		fmt.Fprintf(stderr, "keyfindings: %d releases, %s (%s) to %s (%s) (%d extracted, %d reused); wrote %s\n",
			len(rels), first, commits[first][:7], last, commits[last][:7], len(rels)-reused, reused, *out)
	}
	return nil
}

// toolVersion identifies this keyfindings build for the releases
// manifest, so that records extracted by another build are not reused:
// the module version and VCS revision when the binary was built from a
// clean checkout, else the SHA-256 of the executable itself (go run, go
// test and builds from a modified tree carry no trustworthy revision).
var toolVersion = sync.OnceValues(func() (string, error) {
	if info, ok := debug.ReadBuildInfo(); ok {
		var rev, modified string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" && modified == "false" {
			return "keyfindings " + info.Main.Version + " " + rev, nil
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("identify the keyfindings executable: %w", err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		return "", fmt.Errorf("identify the keyfindings executable: %w", err)
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
})
