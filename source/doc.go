// Package source is the first step of keyfindings' flow
// (source → locate → records → site / diff / cite / verify / releases):
// snapshots of one commit of opencode behind the small Snapshot interface
// (read a blob at a path, walk the tree, the commit's id, time and
// history).
//
// Open opens what --repo names as a Source, and is the one place that
// tells them apart: a URL, fetched by go-git into a cache that survives
// interrupted and concurrent runs (the pin is such a URL cache, with a
// pinned ref and commit); a local git repository, read in place; or a
// plain directory of files. A Source resolves a ref to a snapshot, makes
// a ref available, lists tags and gives the web URL permalinks point at;
// a plain directory answers what only git has with ErrPlainDirectory. Files
// are read from git objects, never from a checkout, bounded by
// MaxBlobSize, and links are never followed. LineStarts, SpanRange and
// SpanBytes are the hash rule: the bytes a record's lines cite.
package source
