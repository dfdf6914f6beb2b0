// Package diff compares two documents of records, after the records
// (source → locate → records → diff): per finding unchanged, moved,
// changed, added, removed and the rest, with fact and token changes and
// unified diffs of excerpts (github.com/aymanbagabas/go-udiff), reported
// as text, Markdown (escaped by mdtext) or JSON.
package diff
