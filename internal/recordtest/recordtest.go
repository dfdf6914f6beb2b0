// Package recordtest builds findings records and documents for the tests
// of the packages that read them (cite, diff, review).
package recordtest

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/keyfindings/keyfindings/findings"
)

// Ptr returns a pointer to s.
func Ptr(s string) *string { return &s }

// Located builds a located record as a build would: the hash is over the
// excerpt.
func Located(id, path string, start int, excerpt string, facts findings.Facts) *findings.Record {
	sum := sha256.Sum256([]byte(excerpt))
	n := strings.Count(excerpt, "\n")
	return &findings.Record{
		ID: id, Title: "Title of " + id, Status: findings.StatusLocated, Facts: facts,
		Location: &findings.Location{
			Path: path, Lines: findings.Lines{Start: start, End: start + n - 1},
			SHA256: hex.EncodeToString(sum[:]), Excerpt: excerpt,
		},
	}
}

// NotLocated builds a record of another status, with its problem.
func NotLocated(id string, status findings.Status, problem string) *findings.Record {
	return &findings.Record{ID: id, Title: "Title of " + id, Status: status, Problem: Ptr(problem), Facts: findings.Facts{}}
}

// Doc is a document of a plain source holding recs.
func Doc(recs ...*findings.Record) *findings.Document {
	return &findings.Document{Schema: findings.Schema, Source: findings.Source{Repo: "https://example.com/r", Ref: "x"}, Findings: recs}
}
