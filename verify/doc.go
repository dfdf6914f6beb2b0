// Package verify checks citations against a repository, after the
// records (source → locate → records → verify): a cited range is
// recomputed at its own commit (ok or changed) or, against another ref,
// found again at other lines or another path (moved).
package verify
