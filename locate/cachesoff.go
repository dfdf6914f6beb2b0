package locate

import "sync/atomic"

// cachesOff switches the Extractor's caches off one by one, for the
// benchmarks that measure what each saves (caches_test.go; the table is
// bench/CACHES.md). Only tests set it, before any Extractor runs; with
// every field false (always, in the binary) each cache works as
// documented where it is defined.
var cachesOff struct {
	// results: every definition is located afresh (results.go).
	results bool
	// anchors: every .ts/.tsx blob is read and tested for the anchors in
	// every tree search (anchors.go).
	anchors bool
	// misses: a blob a shape's query found nothing in is parsed and
	// queried again at the next search (Extractor.misses).
	misses bool
	// parseShare: every locator parses the files it reads itself, instead
	// of sharing one tree per blob among the calls in flight.
	parseShare bool
	// runs: a query group runs again for every text that asks for the
	// same node and range of a file (parsedFile.runs).
	runs bool
	// lineage: every since/until/search_from placement walks the
	// history afresh (a new lineage per placement).
	lineage bool
	// tokens: every model-text excerpt's tokens are counted afresh
	// (countTokens).
	tokens bool
	// rootOnly: a query whose patterns all start at the program node
	// still starts matches at every node below it (cursor.go).
	rootOnly bool
	// anchoredRuns: a query group runs over the whole file even where
	// its texts' anchors tell where their matches lie (anchorSpan), and a
	// fact's query where its Where texts do (joinStarts).
	anchoredRuns bool
}

// counted counts, over every Extractor of the process, the work the
// caches save, for the same benchmarks: numbers that do not depend on the
// machine's load as CPU time does.
var counted struct {
	// parses counts the files parsed (parseFile).
	parses atomic.Int64
	// queryRuns counts the query groups run on a file (groupMatches).
	queryRuns atomic.Int64
	// joinStarts counts the fact queries run only around the
	// occurrences of their Where texts (joinStarts), and joinRuns those
	// runs.
	joinStarts, joinRuns atomic.Int64
	// anchorTests counts the blobs whose bytes were tested for anchors.
	anchorTests atomic.Int64
	// tokenCounts counts the texts tokenized (countTokens).
	tokenCounts atomic.Int64
}
