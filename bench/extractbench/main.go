// Command extractbench times keyfindings' extraction against a local copy
// of opencode's history, through the source and locate APIs: the releases loop (one
// Extractor over many tags, as `keyfindings releases` runs it) and the
// floor (reading the files the catalog needs and parsing each once). It
// is a benchmark tool, not part of keyfindings; bench/run.sh drives it.
//
//	extractbench releases -repo R [-from TAG] [-to TAG] [-out DIR] [-serial]
//	extractbench floor -repo R -ref TAG -findings FILE
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/locate"
	"github.com/keyfindings/keyfindings/source"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: extractbench releases|floor -repo R …")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "releases":
		err = runReleases(os.Args[2:])
	case "floor":
		err = runFloor(os.Args[2:])
	default:
		err = fmt.Errorf("unknown mode %q (want releases or floor)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "extractbench:", err)
		os.Exit(1)
	}
}

type common struct {
	repo, defs, cpuprofile, memprofile string
	first                              int
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.repo, "repo", os.Getenv("KEYFINDINGS_OPENCODE_REPO"), "local opencode repository (default $KEYFINDINGS_OPENCODE_REPO)")
	fs.StringVar(&c.defs, "defs", "", "definitions directory (default: the embedded catalog)")
	fs.StringVar(&c.cpuprofile, "cpuprofile", "", "write a CPU profile here")
	fs.StringVar(&c.memprofile, "memprofile", "", "write a heap profile here at the end")
	fs.IntVar(&c.first, "first", 0, "keep only the catalog's first N definitions (see first)")
}

func (c *common) catalog() (*findings.Catalog, error) {
	var cat *findings.Catalog
	var err error
	if c.defs != "" {
		cat, err = findings.Load(os.DirFS(c.defs), c.defs)
	} else {
		cat, err = findings.Embedded()
	}
	if err != nil {
		return nil, err
	}
	first(cat, c.first)
	return cat, nil
}

// first keeps the definitions of the catalog's first n files by name
// (n <= 0: all): the catalog's files are numbered in the order they were
// added, so this is the catalog as it was when it held n, to measure what
// the definitions added since cost.
func first(cat *findings.Catalog, n int) {
	if n <= 0 || n >= len(cat.Definitions) {
		return
	}
	var names []string
	for _, d := range cat.Definitions {
		names = append(names, path.Base(d.Source))
	}
	sort.Strings(names)
	keep := map[string]bool{}
	for _, name := range names[:n] {
		keep[name] = true
	}
	var defs []*findings.Definition
	for _, d := range cat.Definitions {
		if keep[path.Base(d.Source)] {
			defs = append(defs, d)
		}
	}
	cat.Definitions = defs
}

func (c *common) open() (source.Source, error) {
	if c.repo == "" {
		return nil, fmt.Errorf("no repository: pass -repo or set KEYFINDINGS_OPENCODE_REPO")
	}
	return source.Open(context.Background(), source.Options{Repo: c.repo, Pin: findings.DefaultPin()})
}

func (c *common) profile() func() {
	stop := func() {}
	if c.cpuprofile != "" {
		if f, err := os.Create(c.cpuprofile); err == nil {
			pprof.StartCPUProfile(f)
			stop = func() { pprof.StopCPUProfile(); f.Close() }
		}
	}
	return func() {
		stop()
		if c.memprofile != "" {
			if f, err := os.Create(c.memprofile); err == nil {
				pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
			}
		}
	}
}

// runReleases extracts every release tag from -from to -to with one
// Extractor and optionally writes DIR/<tag>/findings.json.
func runReleases(args []string) error {
	fs := flag.NewFlagSet("releases", flag.ExitOnError)
	var c common
	c.register(fs)
	from := fs.String("from", "", "first tag (default: the oldest release)")
	to := fs.String("to", "", "last tag (default: the newest release)")
	out := fs.String("out", "", "write <out>/<tag>/findings.json")
	serial := fs.Bool("serial", false, "extract one tag after another instead of several at once")
	cacheDir := fs.String("cache", "", "keep located records and query facts on disk here too (CompileOptions.CacheDir)")
	fs.Parse(args)
	defer c.profile()()
	start := time.Now()
	cat, err := c.catalog()
	if err != nil {
		return err
	}
	x, err := locate.CompileWith(cat, locate.CompileOptions{CacheDir: *cacheDir})
	if err != nil {
		return err
	}
	compiled := time.Now()
	o, err := c.open()
	if err != nil {
		return err
	}
	defer o.Close()
	tags, err := releaseTags(o, *from, *to)
	if err != nil {
		return err
	}
	snaps := make([]source.Snapshot, len(tags))
	for i, tag := range tags {
		at, err := o.At(context.Background(), tag)
		if err != nil {
			return err
		}
		snaps[i] = at.Snapshot
	}
	results, err := extractAll(x, snaps, tags, o.WebURL(), *serial)
	if err != nil {
		return err
	}
	done := time.Now()
	located, total := 0, 0
	for i, res := range results {
		for _, r := range res.Document.Findings {
			total++
			if r.Located() {
				located++
			}
		}
		if *out != "" {
			data, err := res.Document.Marshal()
			if err != nil {
				return err
			}
			dir := filepath.Join(*out, tags[i])
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, "findings.json"), data, 0o644); err != nil {
				return err
			}
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(os.Stderr, "extractbench: %d tags (%s..%s), %d definitions, %d/%d records located; compile %s, extract %s; Go heap peak %d MiB\n",
		len(tags), tags[0], tags[len(tags)-1], len(cat.Definitions), located, total,
		compiled.Sub(start).Round(time.Millisecond), done.Sub(compiled).Round(time.Millisecond),
		ms.HeapSys>>20)
	return nil
}

// extractAll extracts every snapshot with x, in order with serial, else at
// most four at a time (the Extractor serialises its own reads of the
// shared repository), and returns the results in snapshot order.
func extractAll(x *locate.Extractor, snaps []source.Snapshot, tags []string, web string, serial bool) ([]*locate.Result, error) {
	limit := 4
	if serial {
		limit = 1
	}
	results := make([]*locate.Result, len(snaps))
	errs := make([]error, len(snaps))
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for i := range snaps {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i], errs[i] = x.Extract(snaps[i], locate.Meta{Repo: web, Ref: tags[i], WebURL: web})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tags[i], err)
		}
	}
	return results, nil
}

// releaseTags lists the release tags (vMAJOR.MINOR.PATCH, no pre-release)
// in semver order, from..to inclusive.
func releaseTags(o source.Source, from, to string) ([]string, error) {
	names, err := o.Tags(context.Background())
	if err != nil {
		return nil, err
	}
	var tags []string
	for _, name := range names {
		if _, ok := semver(name); ok {
			tags = append(tags, name)
		}
	}
	sort.Slice(tags, func(i, j int) bool { return less(tags[i], tags[j]) })
	lo, hi := 0, len(tags)
	for i, t := range tags {
		if t == from {
			lo = i
		}
		if t == to {
			hi = i + 1
		}
	}
	if (from != "" && (lo >= len(tags) || tags[lo] != from)) || (to != "" && (hi == 0 || tags[hi-1] != to)) {
		return nil, fmt.Errorf("tag range %s..%s not found among %d release tags", from, to, len(tags))
	}
	if lo >= hi {
		return nil, fmt.Errorf("empty tag range %s..%s", from, to)
	}
	return tags[lo:hi], nil
}

func semver(s string) ([3]int, bool) {
	var v [3]int
	parts := strings.Split(strings.TrimPrefix(s, "v"), ".")
	if !strings.HasPrefix(s, "v") || len(parts) != 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || p == "" || (len(p) > 1 && p[0] == '0') {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func less(a, b string) bool {
	va, _ := semver(a)
	vb, _ := semver(b)
	for i := range va {
		if va[i] != vb[i] {
			return va[i] < vb[i]
		}
	}
	return false
}

// runFloor reads the files one extraction needs and parses each TypeScript
// one once, in parallel: the least work any tool reading these files with
// go-git and tree-sitter must do. The files are the catalog's paths (and
// candidates) that exist at the tag, plus the paths a findings.json of that
// tag cites (the prompt files of file: definitions), with the two files
// every document's source block needs.
func runFloor(args []string) error {
	fs := flag.NewFlagSet("floor", flag.ExitOnError)
	var c common
	c.register(fs)
	ref := fs.String("ref", "", "tag or commit")
	cited := fs.String("findings", "", "a findings.json of the same tag, for the files its records cite")
	fs.Parse(args)
	defer c.profile()()
	start := time.Now()
	cat, err := c.catalog()
	if err != nil {
		return err
	}
	// Extract also reads these two for the document's source block.
	pin := findings.DefaultPin()
	want := map[string]bool{pin.VersionFile: true, pin.LicenseFile: true}
	for _, d := range cat.Definitions {
		for _, form := range d.Forms() {
			want[form.Path] = true
			for _, p := range form.Candidates {
				want[p] = true
			}
		}
	}
	if *cited != "" {
		doc, err := findings.ReadDocument(*cited)
		if err != nil {
			return err
		}
		for _, r := range doc.Findings {
			if r.Location != nil {
				want[r.Location.Path] = true
			}
		}
	}
	o, err := c.open()
	if err != nil {
		return err
	}
	defer o.Close()
	at, err := o.At(context.Background(), *ref)
	if err != nil {
		return err
	}
	var files []*source.File
	var bytesRead int
	for p := range want {
		f, err := at.Snapshot.ReadFile(p)
		if err != nil {
			continue
		}
		files = append(files, f)
		bytesRead += len(f.Data)
	}
	read := time.Now()
	var wg sync.WaitGroup
	next := make(chan *source.File)
	parsed := 0
	var mu sync.Mutex
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := sitter.NewParser()
			defer p.Close()
			for f := range next {
				lang := typescript.GetLanguage()
				if strings.HasSuffix(f.Path, ".tsx") {
					lang = tsx.GetLanguage()
				}
				p.SetLanguage(lang)
				tree, err := p.ParseCtx(context.Background(), nil, f.Data)
				if err == nil {
					tree.Close()
					mu.Lock()
					parsed++
					mu.Unlock()
				}
			}
		}()
	}
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".ts") || strings.HasSuffix(f.Path, ".tsx") {
			next <- f
		}
	}
	close(next)
	wg.Wait()
	fmt.Fprintf(os.Stderr, "extractbench floor: %s: read %d files (%d bytes) in %s, parsed %d in %s; total %s\n",
		*ref, len(files), bytesRead, read.Sub(start).Round(time.Millisecond), parsed, time.Since(read).Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	return nil
}
