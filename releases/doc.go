// Package releases selects release tags, after the source
// (source → locate → records → releases): which tags are releases, their
// semantic-version order (golang.org/x/mod/semver) and the range a
// releases run covers. The pages that show releases are in package site.
package releases
