package locate

import (
	"fmt"

	"github.com/keyfindings/keyfindings/internal/par"
	"github.com/keyfindings/keyfindings/source"
)

// Job is one snapshot for ExtractMany (a test helper: the binary extracts
// one snapshot at a time), with its document's metadata.
type Job struct {
	Snapshot source.Snapshot
	Meta     Meta
}

// maxRunsInFlight bounds the snapshots ExtractMany works on at once: each
// holds its files and syntax trees until it ends, so memory grows with
// it, while more than a few gain nothing (their reads share one lock and
// their parsing shares the CPUs).
const maxRunsInFlight = 4

// ExtractMany extracts every job with the one catalog and returns the
// results in job order. Several snapshots are worked on at once (at most
// GOMAXPROCS, and at most maxRunsInFlight); blobs they share are parsed
// once and each definition's records for them computed once. The first
// failing job, in job order, is the error.
//
// The Extractor serialises its own calls into the snapshots; the caller
// must not use their repository (go-git is not safe for concurrent use)
// until ExtractMany returns: resolve every ref first, then call it.
func (x *Extractor) ExtractMany(jobs []Job) ([]*Result, error) {
	out := make([]*Result, len(jobs))
	errs := make([]error, len(jobs))
	par.ForEach(len(jobs), min(x.workers, maxRunsInFlight), func(i int) {
		out[i], errs[i] = x.Extract(jobs[i].Snapshot, jobs[i].Meta)
	})
	for i, err := range errs {
		if err != nil {
			name := jobs[i].Meta.Ref
			if name == "" {
				name = jobs[i].Snapshot.Commit()
			}
			return nil, fmt.Errorf("extract %s: %w", name, err)
		}
	}
	return out, nil
}

// Stats counts the work an Extractor has done, for benchmarks and tests.
type Stats struct {
	// Parses is the number of syntax trees built.
	Parses int64
	// Reused and Located count definitions' records taken from the cache
	// and computed afresh.
	Reused, Located int64
}

// Stats returns the counts so far.
func (x *Extractor) Stats() Stats {
	return Stats{Parses: x.parses.parses.Load(), Reused: x.results.hits.Load(), Located: x.results.misses.Load()}
}
