// Package locate is the second step of keyfindings' flow
// (source → locate → records → site / diff / cite / verify / releases):
// it compiles the catalog's tree-sitter queries, runs them on a
// source.Snapshot and turns each definition into findings.Records, with
// their spans, hashes, facts, and since/until placement by ancestry
// (lineage).
//
// Compiling is done in groups of query texts (one tree-sitter query each);
// an Extractor keeps what it compiled, shares each blob's parse among the
// calls in flight, and remembers located records by the blobs they were
// computed from, in memory and on disk under the cache directory, per
// keyfindings build (internal/buildid). bench/CACHES.md measures what
// each of its caches saves.
package locate
