package findings

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

func sp(s string) *string { return &s }

// located builds a located record as a build would: the hash is over the
// excerpt.
func located(id, path string, start int, excerpt string, facts Facts) *Record {
	sum := sha256.Sum256([]byte(excerpt))
	n := strings.Count(excerpt, "\n")
	return &Record{
		ID: id, Title: "Title of " + id, Status: StatusLocated, Path: sp(path),
		Lines: &Lines{Start: start, End: start + n - 1}, SHA256: sp(hex.EncodeToString(sum[:])),
		Excerpt: sp(excerpt), Facts: facts,
	}
}

func notLocated(id, status, problem string) *Record {
	return &Record{ID: id, Title: "Title of " + id, Status: status, Problem: sp(problem), Facts: Facts{}}
}

func doc(recs ...*Record) *Document {
	return &Document{Schema: Schema, Source: Source{Repo: "https://example.com/r", Ref: "x"}, Findings: recs}
}
