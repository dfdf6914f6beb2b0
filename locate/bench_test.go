package locate

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/internal/gittest"
	"github.com/keyfindings/keyfindings/internal/par"
	"github.com/keyfindings/keyfindings/source"

	"github.com/keyfindings/keyfindings/findings"
)

// Benchmarks. The fixture and synthetic ones need nothing but this
// repository:
//
//	go test ./extract -run '^$' -bench . -benchmem
//
// With KEYFINDINGS_OPENCODE_REPO set to a local copy of opencode's
// history, BenchmarkReal* time the embedded catalog on v1.18.3 and on
// the 27 releases v1.16.0..v1.18.3 (bench/run.sh times whole processes).

// BenchmarkCompile compiles the embedded catalog, every query afresh.
func BenchmarkCompile(b *testing.B) {
	cat, err := findings.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		compiledQueries.Clear()
		if _, err := Compile(cat); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(catalogQueries(cat))), "queries")
}

// BenchmarkExtractFixture extracts the catalog fixture: with a new
// Extractor each time (its queries compiled once, outside the loop), and
// again with one Extractor, whose records are all reused.
func BenchmarkExtractFixture(b *testing.B) {
	h := newBenchHistory(b, 1)
	b.Run("fresh", func(b *testing.B) {
		compileCatalog(b, CompileOptions{})
		var parses int64
		for b.Loop() {
			x := compileCatalog(b, CompileOptions{})
			if _, err := x.Extract(h.snaps[0], h.meta(0)); err != nil {
				b.Fatal(err)
			}
			parses += x.Stats().Parses
		}
		b.ReportMetric(float64(parses)/float64(b.N), "parses/op")
	})
	b.Run("reused", func(b *testing.B) {
		x := compileCatalog(b, CompileOptions{})
		if _, err := x.Extract(h.snaps[0], h.meta(0)); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := x.Extract(h.snaps[0], h.meta(0)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReleasesSynthetic runs a synthetic catalog larger than the real
// one (defs definitions over files files) over 27 commits, each changing
// a tenth of the files, with one Extractor: in order, and with
// ExtractMany.
func BenchmarkReleasesSynthetic(b *testing.B) {
	const defs, files, releases = 120, 40, 27
	s := newSynthetic(b, defs, files, releases)
	cat := s.catalog
	if _, err := Compile(cat); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"serial", "ExtractMany"} {
		b.Run(fmt.Sprintf("%s/%ddefs-%dreleases", mode, defs, releases), func(b *testing.B) {
			var st Stats
			for b.Loop() {
				x, err := Compile(cat)
				if err != nil {
					b.Fatal(err)
				}
				if mode == "serial" {
					for _, j := range s.jobs {
						if _, err := x.Extract(j.Snapshot, j.Meta); err != nil {
							b.Fatal(err)
						}
					}
				} else if _, err := x.ExtractMany(s.jobs); err != nil {
					b.Fatal(err)
				}
				st = x.Stats()
			}
			b.ReportMetric(float64(st.Parses), "parses/op")
			b.ReportMetric(float64(st.Located), "located/op")
		})
	}
}

// newBenchHistory is the catalog fixture as a git repository of n commits.
func newBenchHistory(b *testing.B, n int) *history {
	h := &history{repo: gittest.New(b)}
	h.repo.CopyTree(catalogTree)
	for i := 0; i < n; i++ {
		h.add(fmt.Sprintf("c%d", i))
	}
	return h
}

// synthetic is a generated catalog and history.
type synthetic struct {
	catalog *findings.Catalog
	jobs    []Job
}

// newSynthetic writes files TypeScript files with several exported
// functions each, and defs definitions that each cite one function and
// extract facts from it; each of the releases commits changes every
// tenth file (in turn).
func newSynthetic(b *testing.B, defs, files, releases int) *synthetic {
	r := gittest.New(b)
	perFile := (defs + files - 1) / files
	body := func(i, j, rel int) string {
		return fmt.Sprintf(`export function fn_%d_%d(id: string, n: number) {
  if (id.includes("alpha-%d")) return ["A", n * %d]
  if (id.includes("beta")) {
    return ["B", %d]
  }
  return ["default", %d]
}
`, i, j, j, j+1, rel%3, i)
	}
	write := func(rel int) {
		for i := 0; i < files; i++ {
			v := 0
			if i%10 == rel%10 {
				v = rel
			}
			var sb strings.Builder
			fmt.Fprintf(&sb, "// module %d, version %d\nimport { thing } from \"./shared\"\n\n", i, v)
			for j := 0; j < perFile; j++ {
				sb.WriteString(body(i, j, v))
				sb.WriteString("\n")
			}
			r.Write(fmt.Sprintf("packages/synth/src/m%02d/mod.ts", i), []byte(sb.String()))
		}
	}
	s := &synthetic{catalog: &findings.Catalog{}}
	for d := 0; d < defs; d++ {
		i, j := d%files, d/files
		s.catalog.Definitions = append(s.catalog.Definitions, &findings.Definition{
			ID: fmt.Sprintf("synthetic-%d-%d", i, j), Page: "tools", Section: "Synthetic", Title: "Synthetic",
			Claim: "A generated definition.", When: "Always.", Expect: findings.ExpectOne,
			Path:   fmt.Sprintf("packages/synth/src/m%02d/mod.ts", i),
			Source: fmt.Sprintf("synthetic-%d.yaml", d), Order: d,
			Query: fmt.Sprintf(`(export_statement declaration: (function_declaration
  name: (identifier) @_n (#eq? @_n "fn_%d_%d"))) @finding`, i, j),
			Facts: []findings.FactSpec{
				{Name: "tests", Query: "(call_expression function: (member_expression property: (property_identifier) @_m (#eq? @_m \"includes\")) arguments: (arguments (string) @s))", List: true},
				{Name: "returns", Query: "(return_statement (array (string) @v))", List: true},
			},
		})
	}
	for rel := 0; rel < releases; rel++ {
		write(rel)
		c := r.Commit(fmt.Sprintf("v0.%d.0", rel))
		commit, err := source.ResolveCommit(r.Repo, c)
		if err != nil {
			b.Fatal(err)
		}
		snap, err := source.NewGitSnapshot(r.Repo, commit)
		if err != nil {
			b.Fatal(err)
		}
		s.jobs = append(s.jobs, Job{Snapshot: snap, Meta: Meta{Repo: "https://github.com/example/synth", Ref: fmt.Sprintf("v0.%d.0", rel), WebURL: "https://github.com/example/synth"}})
	}
	return s
}

// realRepo opens KEYFINDINGS_OPENCODE_REPO or skips.
func realRepo(b *testing.B) source.Source {
	dir := os.Getenv("KEYFINDINGS_OPENCODE_REPO")
	if dir == "" {
		b.Skip("KEYFINDINGS_OPENCODE_REPO is not set")
	}
	o, err := source.Open(context.Background(), source.Options{Repo: dir, Pin: findings.DefaultPin()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { o.Close() })
	return o
}

func realJob(b *testing.B, o source.Source, tag string) Job {
	at, err := o.At(context.Background(), tag)
	if err != nil {
		b.Fatal(err)
	}
	return Job{Snapshot: at.Snapshot, Meta: Meta{Repo: o.WebURL(), Ref: tag, WebURL: o.WebURL()}}
}

// BenchmarkRealRelease extracts v1.18.3 with a new Extractor each time
// (queries compiled once, outside the loop), next to the floor: reading
// the same files and parsing each TypeScript one once, in parallel.
func BenchmarkRealRelease(b *testing.B) {
	o := realRepo(b)
	j := realJob(b, o, "v1.18.3")
	compileCatalog(b, CompileOptions{})
	var paths []string
	b.Run("extract", func(b *testing.B) {
		for b.Loop() {
			x := compileCatalog(b, CompileOptions{})
			res, err := x.Extract(j.Snapshot, j.Meta)
			if err != nil {
				b.Fatal(err)
			}
			paths = paths[:0]
			for _, cd := range x.defs {
				paths = append(paths, cd.paths()...)
			}
			for _, r := range res.Document.Findings {
				if r.Location != nil {
					paths = append(paths, r.Location.Path)
				}
			}
		}
	})
	b.Run("floor", func(b *testing.B) {
		for b.Loop() {
			seen := map[string]bool{}
			var files []*source.File
			for _, p := range paths {
				if seen[p] {
					continue
				}
				seen[p] = true
				if f, err := j.Snapshot.ReadFile(p); err == nil {
					files = append(files, f)
				}
			}
			par.ForEach(len(files), par.Workers(), func(i int) {
				if f := files[i]; isSource(f.Path) {
					pf, err := parseFile(f)
					if err != nil {
						b.Error(err)
						return
					}
					pf.close()
				}
			})
		}
	})
}

// BenchmarkRealReleases extracts the 27 releases v1.16.0..v1.18.3 with one
// new Extractor each time.
func BenchmarkRealReleases(b *testing.B) {
	o := realRepo(b)
	var jobs []Job
	for _, tag := range strings.Fields(releases27) {
		jobs = append(jobs, realJob(b, o, tag))
	}
	compileCatalog(b, CompileOptions{})
	for b.Loop() {
		if _, err := compileCatalog(b, CompileOptions{}).ExtractMany(jobs); err != nil {
			b.Fatal(err)
		}
	}
}

const releases27 = `v1.16.0 v1.16.2 v1.17.0 v1.17.1 v1.17.2 v1.17.3 v1.17.4 v1.17.5 v1.17.6
v1.17.7 v1.17.8 v1.17.9 v1.17.10 v1.17.11 v1.17.12 v1.17.13 v1.17.14 v1.17.15
v1.17.16 v1.17.17 v1.17.18 v1.17.19 v1.17.20 v1.18.0 v1.18.1 v1.18.2 v1.18.3`
