package locate_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/history"
	"github.com/keyfindings/keyfindings/locate"
	"github.com/keyfindings/keyfindings/source"
)

// BenchmarkCaches measures what each of the Extractor's caches saves, on
// opencode's real history (KEYFINDINGS_OPENCODE_REPO), as a first run of
// the binary meets it: every round runs the workload with every cache on,
// then again with each cache off in turn (interleaved, the order rotating
// from round to round), each run in a state like a new process's (no
// query compiled, no token counted, the repository opened afresh). It
// logs the medians per variant: CPU time (user+sys, the whole process),
// wall time, bytes allocated, and the peak of the Go heap and of the
// resident set, sampled every 5 ms (the syntax trees are C memory: only
// the resident set sees them). One round per iteration:
//
//	go test ./locate -run '^$' -bench 'Caches/cold' -benchtime 3x -v
//
// The variants: results (records kept by the blobs they came from, in
// memory and on disk), disk (no cache directory at all), query-meta and
// results-disk (a cache directory without the one part; warm and next
// only), anchors, misses, parse-share, runs, lineage, tokens, root-only:
// see cachesoff.go. bench/CACHES.md holds the figures.
func BenchmarkCaches(b *testing.B) {
	dir, cat := cachesSetup(b)
	open := func(b *testing.B) *repo { return openRepo(b, dir) }
	extract := func(o *repo, cacheDir string, tags ...string) error {
		x, err := locate.CompileWith(cat, locate.CompileOptions{CacheDir: cacheDir})
		if err != nil {
			return err
		}
		for _, tag := range tags {
			snap, err := o.snapshot(tag)
			if err != nil {
				return err
			}
			if _, err := x.Extract(snap, locate.Meta{Repo: o.webURL, Ref: tag, WebURL: o.webURL}); err != nil {
				return err
			}
		}
		return nil
	}
	// filled returns a cache directory of an extraction of tag.
	filled := func(b *testing.B, tag string) string {
		d := b.TempDir()
		o := open(b)
		defer o.store.Close()
		locate.ForgetCompiled()
		if err := extract(o, d, tag); err != nil {
			b.Fatal(err)
		}
		return d
	}
	common := []string{"results", "disk", "anchors", "misses", "parse-share", "runs", "lineage", "tokens", "root-only"}
	withDisk := append(slices.Clone(common), "query-meta", "results-disk")
	type workload struct {
		name string
		// from is the cache directory a run starts with a copy of ("":
		// an empty one).
		from     func(b *testing.B) string
		variants []string
		run      func(o *repo, cacheDir string) error
	}
	releases := strings.Fields(locate.Releases27)
	workloads := []workload{
		{name: "cold", variants: common, run: func(o *repo, d string) error { return extract(o, d, "v1.18.3") }},
		{name: "warm", from: func(b *testing.B) string { return filled(b, "v1.18.3") }, variants: withDisk,
			run: func(o *repo, d string) error { return extract(o, d, "v1.18.3") }},
		{name: "next", from: func(b *testing.B) string { return filled(b, "v1.18.2") }, variants: withDisk,
			run: func(o *repo, d string) error { return extract(o, d, "v1.18.3") }},
		{name: "releases", variants: common, run: func(o *repo, d string) error { return extract(o, d, releases...) }},
		{name: "log", variants: common, run: func(o *repo, d string) error { return logRouting(cat, o, d) }},
	}
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			from := ""
			if w.from != nil {
				from = w.from(b)
			}
			variants := []string{"none"}
			for _, v := range w.variants {
				if *onlyCaches == "" || slices.Contains(strings.Split(*onlyCaches, ","), v) {
					variants = append(variants, v)
				}
			}
			samples := map[string][]sample{}
			round := 0
			for b.Loop() {
				for i := range variants {
					v := variants[(i+round)%len(variants)]
					s, err := runVariant(b, v, from, open, w.run)
					if err != nil {
						b.Fatalf("%s, %s off: %v", w.name, v, err)
					}
					samples[v] = append(samples[v], s)
				}
				round++
			}
			b.StopTimer()
			logTable(b, w.name, variants, samples)
		})
	}
}

// onlyCaches limits BenchmarkCaches to some variants (comma-separated).
var onlyCaches = flag.String("caches.off", "", "BenchmarkCaches: measure only these variants (comma-separated), beside all caches on")

// runVariant runs one workload with the cache v names off ("none": all
// on), from a copy of the cache directory from, and measures it.
func runVariant(b *testing.B, v, from string, open func(*testing.B) *repo, run func(*repo, string) error) (sample, error) {
	b.StopTimer()
	defer b.StartTimer()
	cacheDir := b.TempDir()
	if from != "" {
		if err := os.CopyFS(cacheDir, os.DirFS(from)); err != nil {
			b.Fatal(err)
		}
	}
	switch v {
	case "none":
	case "disk":
		cacheDir = ""
	case "query-meta", "results-disk":
		trimCacheDir(b, cacheDir, v == "query-meta")
	default:
		if err := locate.SetCacheOff(v, true); err != nil {
			b.Fatal(err)
		}
		defer locate.SetCacheOff(v, false)
	}
	locate.ForgetCompiled()
	locate.ForgetTokenCounts()
	o := open(b)
	defer o.store.Close()
	return measure(func() error { return run(o, cacheDir) })
}

// trimCacheDir removes from a cache directory the query metadata
// (queries) or else the cached results.
func trimCacheDir(b *testing.B, dir string, queries bool) {
	builds, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, build := range builds {
		parts, err := os.ReadDir(filepath.Join(dir, build.Name()))
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range parts {
			if (p.Name() == "queries") == queries {
				if err := os.RemoveAll(filepath.Join(dir, build.Name(), p.Name())); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// logRouting is `keyfindings log system-prompt-routing --from v1.0.0 --to
// v1.18.3`, without the output.
func logRouting(cat *findings.Catalog, o *repo, cacheDir string) error {
	q := history.Query{Repo: o.webURL, WebURL: o.webURL, CacheDir: cacheDir}
	var err error
	if q.To, err = source.ResolveCommit(o.git, "v1.18.3"); err != nil {
		return err
	}
	if q.From, err = source.ResolveCommit(o.git, "v1.0.0"); err != nil {
		return err
	}
	if q.Releases, err = history.Releases(o.git); err != nil {
		return err
	}
	const id = "system-prompt-routing"
	_, err = history.LogEach(o.git, q, []history.Finding{{ID: id, Definition: history.FindDefinition(cat, id)}})
	return err
}

// repo is the local copy of opencode's history, opened with go-git as
// source.Open opens a repository (a 16 MiB object cache, a few pack files
// kept open; see source/open.go), the permalinks citing the pinned
// repository.
type repo struct {
	git    *git.Repository
	store  *filesystem.Storage
	webURL string
}

func openRepo(b *testing.B, dir string) *repo {
	r, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if err != nil {
		b.Fatal(err)
	}
	st, ok := r.Storer.(*filesystem.Storage)
	if !ok {
		b.Fatalf("%s: not a repository on disk", dir)
	}
	store := filesystem.NewStorageWithOptions(st.Filesystem(), cache.NewObjectLRU(16*cache.MiByte), filesystem.Options{MaxOpenDescriptors: 8})
	if r, err = git.Open(store, nil); err != nil {
		b.Fatal(err)
	}
	o := &repo{git: r, store: store, webURL: strings.TrimSuffix(findings.DefaultPin().Repo, ".git")}
	b.Cleanup(func() { store.Close() })
	return o
}

// snapshot is the commit tag names.
func (o *repo) snapshot(tag string) (source.Snapshot, error) {
	c, err := source.ResolveCommit(o.git, tag)
	if err != nil {
		return nil, err
	}
	return source.NewGitSnapshot(o.git, c)
}

// sample is one measured run.
type sample struct {
	cpu, wall                time.Duration
	alloc, peakHeap, peakRSS uint64
	// work counts files parsed, query groups run, blobs tested for
	// anchors and texts tokenized.
	work [4]int64
}

// measure runs f after a garbage collection and measures it.
func measure(f func() error) (sample, error) {
	runtime.GC()
	debug.FreeOSMemory()
	ms := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	var mu sync.Mutex
	var s sample
	peek := func() {
		metrics.Read(ms[1:])
		mu.Lock()
		s.peakHeap = max(s.peakHeap, ms[1].Value.Uint64())
		s.peakRSS = max(s.peakRSS, rss())
		mu.Unlock()
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				peek()
			}
		}
	}()
	metrics.Read(ms[:1])
	work0 := work()
	alloc0, cpu0, t0 := ms[0].Value.Uint64(), cpuTime(), time.Now()
	err := f()
	s.wall, s.cpu = time.Since(t0), cpuTime()-cpu0
	w := work()
	for i := range w {
		s.work[i] = w[i] - work0[i]
	}
	metrics.Read(ms[:1])
	close(stop)
	<-done
	peek()
	s.alloc = ms[0].Value.Uint64() - alloc0
	return s, err
}

// work is the work counted so far (see sample.work).
func work() [4]int64 { return locate.Counts() }

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rss is the process's resident set size, 0 where /proc does not tell.
func rss() uint64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// logTable logs the medians per variant and what each cache saves: how
// much more CPU time (and allocation) the workload takes without it.
func logTable(b *testing.B, name string, variants []string, samples map[string][]sample) {
	med := func(v string, get func(sample) float64) float64 {
		var xs []float64
		for _, s := range samples[v] {
			xs = append(xs, get(s))
		}
		slices.Sort(xs)
		if len(xs) == 0 {
			return 0
		}
		if len(xs)%2 == 1 {
			return xs[len(xs)/2]
		}
		return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
	}
	cpu := func(s sample) float64 { return s.cpu.Seconds() * 1000 }
	wall := func(s sample) float64 { return s.wall.Seconds() * 1000 }
	alloc := func(s sample) float64 { return float64(s.alloc) / (1 << 20) }
	heap := func(s sample) float64 { return float64(s.peakHeap) / (1 << 20) }
	res := func(s sample) float64 { return float64(s.peakRSS) / (1 << 20) }
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: medians of %d rounds, load average %s\n", name, len(samples["none"]), loadAverage())
	fmt.Fprintf(&sb, "%-13s %9s %8s %9s %8s %9s %9s %9s %7s %7s %7s %7s\n", "off", "cpu ms", "cpu +%", "wall ms", "alloc MB", "alloc +%", "heap MB", "rss MB", "parses", "queries", "anchors", "tokens")
	base, baseAlloc := med("none", cpu), med("none", alloc)
	for _, v := range variants {
		c, a := med(v, cpu), med(v, alloc)
		fmt.Fprintf(&sb, "%-13s %9.0f %+8.1f %9.0f %8.0f %+9.1f %9.0f %9.0f", v, c, 100*(c-base)/base, med(v, wall), a, 100*(a-baseAlloc)/baseAlloc, med(v, heap), med(v, res))
		for i := range 4 {
			fmt.Fprintf(&sb, " %7.0f", med(v, func(s sample) float64 { return float64(s.work[i]) }))
		}
		sb.WriteString("\n")
	}
	b.Log("\n" + sb.String())
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}

// BenchmarkCachesUnits measures, on v1.18.3, the CPU time of one unit of
// the work BenchmarkCaches counts, where a workload's CPU time varies too
// much with the machine's load to show a small saving: parsing one of the
// files the catalog cites, and counting the tokens of one model-text
// excerpt (with no count remembered). A cache's saving is then the work
// it avoids times the unit.
//
//	go test ./locate -run '^$' -bench 'CachesUnits' -benchtime 5x -v
func BenchmarkCachesUnits(b *testing.B) {
	dir, cat := cachesSetup(b)
	snap, err := openRepo(b, dir).snapshot("v1.18.3")
	if err != nil {
		b.Fatal(err)
	}
	x, err := locate.Compile(cat)
	if err != nil {
		b.Fatal(err)
	}
	res, err := x.Extract(snap, locate.Meta{})
	if err != nil {
		b.Fatal(err)
	}
	var files []*source.File
	var texts []string
	seen := map[string]bool{}
	for _, r := range res.Document.Findings {
		if r.Location == nil {
			continue
		}
		if r.Location.Tokens != nil {
			texts = append(texts, r.Location.Excerpt)
		}
		p := r.Location.Path
		if seen[p] || !(strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx")) {
			continue
		}
		seen[p] = true
		f, err := snap.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, f)
	}
	var parse, count time.Duration
	for b.Loop() {
		c0 := cpuTime()
		for _, f := range files {
			if err := locate.Parse(f); err != nil {
				b.Fatal(err)
			}
		}
		c1 := cpuTime()
		locate.SetCacheOff("tokens", true)
		for _, t := range texts {
			if err := locate.CountTokens(t); err != nil {
				b.Fatal(err)
			}
		}
		locate.SetCacheOff("tokens", false)
		parse, count = parse+c1-c0, count+cpuTime()-c1
	}
	n := float64(b.N)
	b.ReportMetric(parse.Seconds()*1000/n/float64(len(files)), "cpu-ms/parse")
	b.ReportMetric(count.Seconds()*1000/n/float64(len(texts)), "cpu-ms/count")
	b.Logf("%d files parsed, %d excerpts counted per round; load average %s", len(files), len(texts), loadAverage())
}

// cachesSetup returns the real repository's path and the built-in
// catalog, skipping without the repository.
func cachesSetup(b *testing.B) (string, *findings.Catalog) {
	b.Helper()
	dir := os.Getenv("KEYFINDINGS_OPENCODE_REPO")
	if dir == "" {
		b.Skip("KEYFINDINGS_OPENCODE_REPO is not set: set it to a local copy of opencode's history to measure the caches")
	}
	cat, err := findings.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	return dir, cat
}
