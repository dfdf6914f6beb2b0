package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/keyfindings/keyfindings/findings"
)

// ReleasesManifestFile is the file of a releases directory that says what
// each release's findings.json was built from, so that a later run can
// reuse it instead of extracting the release again.
const ReleasesManifestFile = ".keyfindings-releases.json"

// ReleasesManifestSchema is the schema value of the manifest. Version 1
// held one ReleasesKey for the whole directory; version 2 holds one per
// release, since releases outside a run's range stay as an earlier run
// (perhaps another keyfindings build) wrote them; version 3 adds what the
// index pages and timelines are rendered from (a summary of each
// release's records) and what each release's pages were rendered with;
// version 4 writes a record summary that is the same as the release
// before's as its id alone (see Marshal).
const ReleasesManifestSchema = "keyfindings/releases-manifest/v4"

const (
	releasesManifestSchemaV1 = "keyfindings/releases-manifest/v1"
	releasesManifestSchemaV2 = "keyfindings/releases-manifest/v2"
	releasesManifestSchemaV3 = "keyfindings/releases-manifest/v3"
)

// ReleasesKey is what a release was built with. A release is reused only
// when all of it matches.
type ReleasesKey struct {
	// Tool identifies the keyfindings build that extracted the records.
	Tool string `json:"tool"`
	// Catalog is the definitions' fingerprint (findings.Catalog.Fingerprint).
	Catalog string `json:"catalog"`
	// Repo is the web URL the records cite (their source.repo).
	Repo string `json:"repo"`
}

// ReleasesManifest is the content of ReleasesManifestFile: the releases
// of the directory in version order.
type ReleasesManifest struct {
	Schema string `json:"schema"`
	// Pages are the top-level pages the directory's index wrote (minor
	// versions, timelines), so that one no longer rendered is removed.
	Pages    []string          `json:"pages,omitempty"`
	Releases []ManifestRelease `json:"releases"`
}

// ManifestRelease is one release of the manifest.
type ManifestRelease struct {
	Tag    string `json:"tag"`
	Commit string `json:"commit"`
	ReleasesKey
	// FindingsSHA256 is the SHA-256 of <tag>/findings.json as written.
	FindingsSHA256 string `json:"findings_sha256"`
	// Routes are the representative models' route totals at the
	// release, for the index's plot. Manifests written before keyfindings
	// kept them lack it; they are computed from findings.json then.
	Routes []RouteTotal `json:"routes,omitempty"`
	// Version and CommittedAt are the source's, for the index.
	Version     string `json:"version,omitempty"`
	CommittedAt string `json:"committed_at,omitempty"`
	// Pages identifies what the release's pages were rendered with (the
	// templates, the neighbouring releases): a release whose key is the
	// same is not rendered again.
	Pages string `json:"pages,omitempty"`
	// Records summarise the release's records for the index and the
	// timelines; nil in manifests of version 2 and before.
	Records []RecordSummary `json:"records,omitempty"`
}

// sameBuild reports whether two entries describe the same release built
// the same way: everything but the route totals, which follow from
// findings.json.
func (e ManifestRelease) sameBuild(o ManifestRelease) bool {
	return e.Tag == o.Tag && e.Commit == o.Commit && e.ReleasesKey == o.ReleasesKey && e.FindingsSHA256 == o.FindingsSHA256
}

// wireRelease is a ManifestRelease as the manifest holds it: each of
// its records a RecordSummary, or, where that is the same as the summary
// of the same id in the release listed before it, the id alone (a JSON
// string). Most records do not change from one release to the next, so
// a thousand releases' summaries stay a few megabytes.
type wireRelease struct {
	ManifestRelease
	Records []any `json:"records,omitempty"`
}

// toWire returns e with its records written against prev's (nil for the
// first release).
func toWire(e ManifestRelease, prev []RecordSummary) wireRelease {
	w := wireRelease{ManifestRelease: e}
	w.ManifestRelease.Records = nil
	if e.Records == nil {
		return w
	}
	w.Records = make([]any, len(e.Records))
	for i, s := range e.Records {
		if p := recordOf(prev, s.ID); p != nil && *p == s {
			w.Records[i] = s.ID
		} else {
			w.Records[i] = s
		}
	}
	return w
}

// wireReleaseIn is wireRelease as read back.
type wireReleaseIn struct {
	ManifestRelease
	Records []json.RawMessage `json:"records"`
}

// fromWire returns the release with its records read against prev's,
// the summaries of the release listed before it.
func (w *wireReleaseIn) fromWire(prev []RecordSummary) (ManifestRelease, error) {
	e := w.ManifestRelease
	if w.Records == nil {
		e.Records = nil
		return e, nil
	}
	e.Records = make([]RecordSummary, len(w.Records))
	for i, raw := range w.Records {
		if len(raw) > 0 && raw[0] == '"' {
			// Ids are anchors, written without escapes; one that is not
			// found below is an error.
			id := string(bytes.Trim(raw, `"`))
			p := recordOf(prev, id)
			if p == nil {
				return e, fmt.Errorf("release %s: record %s is the same as in the release before, which has none", e.Tag, id)
			}
			e.Records[i] = *p
			continue
		}
		if err := json.Unmarshal(raw, &e.Records[i]); err != nil {
			return e, err
		}
	}
	return e, nil
}

// Marshal encodes the manifest as JSON with a trailing newline, one
// release a line, its records written against the release before's (see
// wireRelease).
func (m *ReleasesManifest) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	head := *m
	head.Releases = nil
	if err := enc.Encode(head); err != nil {
		return nil, err
	}
	// {"schema":…,"releases":null}\n → {"schema":…,"releases":[\n
	out := bytes.TrimSuffix(buf.Bytes(), []byte("null}\n"))
	out = append(bytes.Clone(out), "[\n"...)
	for i := range m.Releases {
		buf.Reset()
		var prev []RecordSummary
		if i > 0 {
			prev = m.Releases[i-1].Records
		}
		if err := enc.Encode(toWire(m.Releases[i], prev)); err != nil {
			return nil, err
		}
		line := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		out = append(out, line...)
		if i+1 < len(m.Releases) {
			out = append(out, ',')
		}
		out = append(out, '\n')
	}
	return append(out, "]}\n"...), nil
}

// ReadReleasesManifest reads the manifest of the releases directory dir.
// A directory without one, or not marked as written by keyfindings, gives
// nil and no error; so does a manifest this version cannot read (nothing
// is reused then; the reason is returned as note for the user).
func ReadReleasesManifest(dir string) (m *ReleasesManifest, note string, err error) {
	if _, err := os.Stat(filepath.Join(dir, Marker)); err != nil {
		return nil, "", nil
	}
	file := filepath.Join(dir, ReleasesManifestFile)
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", file, err)
	}
	var raw struct {
		Schema      string          `json:"schema"`
		Pages       []string        `json:"pages"`
		Releases    []wireReleaseIn `json:"releases"`
		ReleasesKey                 // version 1: one key for every release
	}
	unreadable := fmt.Sprintf("%s is unreadable or of another version; extracting every release again", file)
	err = json.Unmarshal(data, &raw)
	switch {
	case err == nil && (raw.Schema == ReleasesManifestSchema || raw.Schema == releasesManifestSchemaV3):
		// Version 3 writes every summary whole, which version 4 reads.
	case err == nil && raw.Schema == releasesManifestSchemaV2:
		// The same but for the summaries, which are made from findings.json.
	case err == nil && raw.Schema == releasesManifestSchemaV1:
		for i := range raw.Releases {
			raw.Releases[i].ReleasesKey = raw.ReleasesKey
		}
	default:
		return nil, unreadable, nil
	}
	m = &ReleasesManifest{Schema: ReleasesManifestSchema, Pages: raw.Pages, Releases: make([]ManifestRelease, len(raw.Releases))}
	for i := range raw.Releases {
		var prev []RecordSummary
		if i > 0 {
			prev = m.Releases[i-1].Records
		}
		if m.Releases[i], err = raw.Releases[i].fromWire(prev); err != nil {
			return nil, unreadable, nil
		}
	}
	return m, "", nil
}

// Reuse returns the release tag as an earlier run wrote it in dir: its
// document and licence, read back from <tag>/findings.json and
// <tag>/upstream-license.txt. It does so only when the manifest lists
// tag at commit, built with key, and the files are intact (the
// hashes match, and the document encodes back to the very bytes read, so
// the output is the same as after a fresh extraction). Otherwise it
// returns nil and the reason.
func (m *ReleasesManifest) Reuse(dir string, key ReleasesKey, tag, commit string) (*Release, string) {
	var entry *ManifestRelease
	if m != nil {
		for i := range m.Releases {
			if m.Releases[i].Tag == tag {
				entry = &m.Releases[i]
			}
		}
	}
	switch {
	case entry == nil:
		return nil, "not built before"
	case entry.Tool != key.Tool:
		return nil, "built by another keyfindings build"
	case entry.Catalog != key.Catalog:
		return nil, "built with other definitions"
	case entry.Repo != key.Repo:
		return nil, "built for another repository URL"
	case entry.Commit != commit:
		return nil, fmt.Sprintf("built from commit %s; the tag now names %s", short(entry.Commit), short(commit))
	}
	tagDir := filepath.Join(dir, filepath.FromSlash(tag))
	data, err := os.ReadFile(filepath.Join(tagDir, "findings.json"))
	if err != nil {
		return nil, "its findings.json is unreadable"
	}
	if sha256Hex(data) != entry.FindingsSHA256 {
		return nil, "its findings.json was modified"
	}
	doc, err := findings.DecodeDocument(data, "findings.json")
	if err != nil {
		return nil, "its findings.json is unreadable"
	}
	if again, err := doc.Marshal(); err != nil || !bytes.Equal(again, data) {
		return nil, "its findings.json does not round-trip"
	}
	if doc.Source.Commit == nil || *doc.Source.Commit != commit || doc.Source.Ref != tag || doc.Source.Repo != key.Repo {
		return nil, "its findings.json describes another source"
	}
	rel := &Release{Tag: tag, Document: doc}
	if lic := doc.Source.License; lic != nil {
		data, err := os.ReadFile(filepath.Join(tagDir, "upstream-license.txt"))
		if err != nil || sha256Hex(data) != lic.SHA256 {
			return nil, "its upstream-license.txt is missing or modified"
		}
		rel.License = data
	}
	return rel, ""
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func short(commit string) string {
	return commit[:min(len(commit), findings.ShortCommitLen)]
}
