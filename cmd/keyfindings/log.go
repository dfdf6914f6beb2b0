package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/history"
	"github.com/keyfindings/keyfindings/internal/cmem"
	"github.com/keyfindings/keyfindings/internal/par"
	"github.com/keyfindings/keyfindings/locate"
	"github.com/keyfindings/keyfindings/source"
)

// logGCPercent is the garbage collector's target for a log when GOGC
// does not set one: a log of many records keeps up to some 200 MB live
// (the pack indexes, records, tree lookups, ancestry), and with the
// default (100) the heap grows to twice that. At 50 a log of the eight
// records that read provider/transform.ts over the whole history peaked
// at 269 MiB rather than 341 MiB, for 15.9 s of CPU rather than 14.2 s.
const logGCPercent = 50

// logMemoryLimit is the Go runtime's soft memory limit for a log when
// GOMEMLIMIT does not set one. A log of every record over the whole
// history keeps up to some 130 MB live, and tree-sitter's trees (the
// calls in flight and the recent ones, see locate) take some 60 MiB
// more outside Go's heap. On 2026-12-06, two runs each on the 2-vCPU VM,
// same output: with 200 MiB it peaked at 290–297 MiB for 112–115 s of
// CPU, with 184 MiB at 275–284 MiB for 117–123 s.
const logMemoryLimit = 184 << 20

// limitLogArenas bounds the C heap's arenas to one per worker for a log,
// unless MALLOC_ARENA_MAX sets them. A log locates several commits at
// once, on as many threads, and glibc would give each its own arena of
// syntax trees: every record of the catalog over the whole history
// peaked at 284 MiB with glibc's default and 254 MiB with two arenas
// (2-vCPU VM, same output, within the run-to-run noise in time).
func limitLogArenas() {
	if os.Getenv("MALLOC_ARENA_MAX") == "" {
		cmem.LimitArenas(par.Workers())
	}
}

// onLogWalk is called as a log starts walking (a hook for the tests).
var onLogWalk = func() {}

func runLog(args []string, stdout, stderr io.Writer) error {
	defer commandGC(logGCPercent, logMemoryLimit)()
	limitLogArenas()
	fs := newFlags("log", stderr)
	fs.Usage = commandUsage(fs, "keyfindings log [flags] ID [ID...]",
		"Lists, newest first, the commits reachable from --to and not from --from at which finding ID's record changed against the commit's first parent: "+
			"its cited bytes (changed), its facts (facts), its file (moved), or whether it is located (appeared, disappeared; status for missing ↔ ambiguous). "+
			"A commit that only shifts the cited lines is not listed. Each entry names the first release tag that contains the commit.")
	var src sourceFlags
	src.registerRepo(fs)
	from := fs.String("from", "", "leave out the commits reachable from this ref (git log FROM..TO; default: none, the whole history)")
	to := fs.String("to", "", "newest ref to walk from (default: the pin's ref when the repository holds that tag, else HEAD)")
	all := fs.Bool("all-commits", false, "also list, as touched, the commits that changed a file the record is read from without changing the record")
	format := fs.String("format", "text", "output format: text, md or json")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("want a finding id (usage: keyfindings log ID [ID...] [--from REF] [--to REF])")
	}
	switch *format {
	case "text", "md", "json":
	default:
		return usagef("--format %q: want text, md or json", *format)
	}
	cat, err := src.definitions()
	if err != nil {
		return err
	}
	var follow []history.Finding
	for _, id := range rest {
		def := history.FindDefinition(cat, id)
		if def == nil {
			return fmt.Errorf("no finding %q; `keyfindings list` shows the definition ids (a definition with expect: all gives <id>-<key> records)", id)
		}
		follow = append(follow, history.Finding{ID: id, Definition: def})
	}
	ctx := context.Background()
	o, err := src.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer o.Close()
	q := history.Query{AllCommits: *all, Repo: o.WebURL(), WebURL: o.WebURL(), CacheDir: src.extractCache()}
	repo, err := logRange(ctx, o, &q, *from, *to)
	if errors.Is(err, source.ErrPlainDirectory) {
		return fmt.Errorf("--repo %s is a plain directory, which has no history; point --repo at a git repository", src.repo)
	}
	if err != nil {
		return err
	}
	for _, f := range follow {
		if f.Definition.Expect == findings.ExpectAll && f.ID == f.Definition.ID {
			return expectAllError(repo, f.Definition, q.To)
		}
	}
	if q.Releases, err = history.Releases(repo); err != nil {
		return err
	}
	onLogWalk()
	hs, err := history.LogEach(repo, q, follow)
	if errors.Is(err, history.ErrShallow) {
		return fmt.Errorf("%v; pass --repo PATH to a full clone", err)
	}
	if err != nil {
		return err
	}
	switch *format {
	case "text":
		return history.Histories(hs).WriteText(stdout)
	case "md":
		return history.Histories(hs).WriteMarkdown(stdout, o.WebURL())
	}
	data, err := history.Histories(hs).MarshalIndent()
	if err != nil {
		return err
	}
	_, err = stdout.Write(data)
	return err
}

// logRange sets q.To from --to (default: the source's default ref, the
// pin's tag when the repository holds it, else HEAD) and q.From from
// --from, and returns the repository to walk. A fetched source is fetched
// in full: a log needs the whole history, not a shallow tag. A plain
// directory has no history: the error wraps source.ErrPlainDirectory.
func logRange(ctx context.Context, o source.Source, q *history.Query, from, to string) (*git.Repository, error) {
	repo, err := o.Repository()
	if err != nil {
		return nil, err
	}
	if s, err := repo.Storer.Shallow(); err == nil && len(s) > 0 {
		// A fetched pin or tag is shallow; "HEAD" fetches every branch
		// and tag in full, starting the cache entry afresh (and so with
		// a new repository).
		if err := o.Ensure(ctx, "HEAD"); err != nil {
			return nil, err
		}
	}
	at, err := o.At(ctx, to)
	if err != nil {
		return nil, fmt.Errorf("--to: %w", err)
	}
	if repo, err = o.Repository(); err != nil {
		return nil, err
	}
	if q.To, err = repo.CommitObject(plumbing.NewHash(at.Commit)); err != nil {
		return nil, fmt.Errorf("--to %s: %w", at.Ref, err)
	}
	if from == "" {
		return repo, nil
	}
	if err := o.Ensure(ctx, from); err != nil {
		return nil, err
	}
	if repo, err = o.Repository(); err != nil {
		return nil, err
	}
	if q.From, err = source.ResolveCommit(repo, from); err != nil {
		return nil, fmt.Errorf("--from: %w", err)
	}
	return repo, nil
}

// expectAllError names the record ids a definition with expect: all gives
// at --to, since log follows one record.
func expectAllError(repo *git.Repository, def *findings.Definition, to *object.Commit) error {
	snap, err := source.NewGitSnapshot(repo, to)
	if err != nil {
		return err
	}
	x, err := locate.Compile(&findings.Catalog{Definitions: []*findings.Definition{def}})
	if err != nil {
		return err
	}
	res, err := x.Extract(snap, locate.Meta{})
	if err != nil {
		return err
	}
	var ids []string
	for _, r := range res.Document.Findings {
		if r.ID != def.ID {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) == 0 {
		return usagef("finding %s has one record per match (expect: all) and none at %s; give a record id <id>-<key>", def.ID, to.Hash.String()[:findings.ShortCommitLen])
	}
	return usagef("finding %s has one record per match (expect: all); give one record id: %s", def.ID, strings.Join(ids, ", "))
}
