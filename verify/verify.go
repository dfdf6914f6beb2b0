package verify

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/keyfindings/keyfindings/cite"
	"github.com/keyfindings/keyfindings/locate"
	"github.com/keyfindings/keyfindings/source"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/keyfindings/keyfindings/findings"
)

// Verify statuses.
const (
	VerifyOK      = "ok"
	VerifyMoved   = "moved"
	VerifyChanged = "changed"
	// VerifyError means the citation could not be checked (its commit is
	// not in the repository, or it does not parse).
	VerifyError = "error"
)

// Verdict is the outcome of checking one citation.
type Verdict struct {
	Status string
	// Citation is the citation as checked.
	Citation cite.Citation
	// New is where the cited bytes are now (moved), or the citation with
	// its hash filled in (ok, for a bare permalink); nil otherwise.
	New *cite.Citation
	// Reason says why a citation is changed or could not be checked, or
	// notes where else moved bytes were found.
	Reason string
	// Err is the error an error verdict's Reason tells of, when there is
	// one (a typed error the caller may word otherwise).
	Err error
}

// Verifier checks citations against one opened source: each at its own
// commit, or, given a target ref, whether the cited bytes are still there.
type Verifier struct {
	o      source.Source
	target *source.Resolved
	// def is the source's default snapshot, for citations without a
	// commit when no target ref is given.
	def   *source.Resolved
	snaps map[string]source.Snapshot
	// tree lists the target's files once, for the moved-file search.
	tree   []source.Entry
	walked bool
	// x re-locates findings by id at the target (nil: never); doc and
	// docErr are its one extraction there.
	x      *locate.Extractor
	doc    *findings.Document
	docErr error
}

// RelocateWith makes the verifier re-locate, with the definitions of x, a
// citation that carries a finding id and whose bytes are gone from the
// target ref: the finding's definition is run there, and the verdict gives
// its new citation.
func (v *Verifier) RelocateWith(x *locate.Extractor) { v.x = x }

// NewVerifier returns a verifier for o. With a non-empty ref, citations
// are checked against that ref ("is this still true there?").
func NewVerifier(ctx context.Context, o source.Source, ref string) (*Verifier, error) {
	v := &Verifier{o: o, snaps: map[string]source.Snapshot{}}
	if ref != "" {
		at, err := o.At(ctx, ref)
		if err != nil {
			return nil, err
		}
		v.target = at
	}
	return v, nil
}

// Verify checks citation c. excerpt, when not nil, is the record's
// excerpt (from a findings.json), which must match the cited bytes too.
func (v *Verifier) Verify(ctx context.Context, c cite.Citation, excerpt *string) Verdict {
	if !c.HasCommit() {
		return v.verifyNoCommit(ctx, c)
	}
	short := shortHex(c.Commit)
	snap, err := v.snapshotAt(ctx, c.Commit)
	if err != nil {
		return Verdict{Status: VerifyError, Citation: c, Reason: err.Error(), Err: err}
	}
	f, err := snap.ReadFile(c.Path)
	if err != nil {
		return changedVerdict(c, fmt.Sprintf("%s at %s: %s", c.Path, short, readProblem(err)))
	}
	orig, err := source.SpanBytes(f.Data, c.Start, c.End)
	if err != nil {
		return changedVerdict(c, fmt.Sprintf("%s at %s: %v", c.Path, short, err))
	}
	sum := hashHex(orig)
	if c.Hash == "" {
		// Nothing says which bytes the citation meant: never ok. The
		// citation with the hash of the lines is given for the user to
		// check and use.
		n := c
		n.Hash = sum
		return Verdict{Status: VerifyError, Citation: c, New: &n, Reason: "the citation has no SHA-256 to check the lines against"}
	}
	if !strings.HasPrefix(sum, c.Hash) {
		return changedVerdict(c, fmt.Sprintf("the lines at %s hash to SHA-256 %s…, not the cited %s…", short, sum[:cite.HashPrefixLen], hashPrefix(c.Hash)))
	}
	if excerpt != nil && utf8.Valid(orig) && *excerpt != string(orig) {
		return changedVerdict(c, fmt.Sprintf("the record's excerpt differs from lines %d–%d at %s", c.Start, c.End, short))
	}
	if v.target == nil {
		return Verdict{Status: VerifyOK, Citation: c}
	}
	return v.relocate(v.search(c, orig, sum))
}

// relocate turns a changed verdict at the target for a citation with a
// finding id into the finding's new citation there: moved when its bytes
// hash as cited, changed otherwise. Other verdicts are returned as they are.
func (v *Verifier) relocate(vd Verdict) Verdict {
	c := vd.Citation
	if vd.Status != VerifyChanged || v.x == nil || c.ID == "" {
		return vd
	}
	label := v.targetLabel()
	if v.doc == nil && v.docErr == nil {
		res, err := v.x.Extract(v.target.Snapshot, locate.Meta{Repo: v.o.WebURL(), Ref: v.target.Ref, WebURL: v.target.WebURL})
		if err != nil {
			v.docErr = err
		} else {
			v.doc = res.Document
		}
	}
	if v.docErr != nil {
		return Verdict{Status: VerifyError, Citation: c, Reason: fmt.Sprintf("%s; re-locating %s at %s failed: %v", vd.Reason, c.ID, label, v.docErr)}
	}
	r := v.doc.Find(c.ID)
	switch {
	case r == nil:
		vd.Reason += fmt.Sprintf("; no finding %s at %s to re-locate it by", c.ID, label)
		return vd
	case !r.Located():
		vd.Reason += fmt.Sprintf("; finding %s is %s at %s: %s", c.ID, r.Status, label, problemText(r))
		return vd
	}
	n, err := cite.Record(v.doc, r)
	if err != nil {
		vd.Reason += "; " + err.Error()
		return vd
	}
	if n.HasCommit() && c.WebURL != "" {
		n.WebURL, n.Forge = c.WebURL, c.Forge
	}
	vd.New = &n
	if strings.HasPrefix(n.Hash, c.Hash) {
		return Verdict{Status: VerifyMoved, Citation: c, New: &n, Reason: "re-located by its finding id"}
	}
	vd.Reason = fmt.Sprintf("finding %s is at %s with other bytes (%s)", c.ID, label, vd.Reason)
	return vd
}

// problemText is a record's problem, for messages.
func problemText(r *findings.Record) string {
	if r.Problem == nil {
		return "no reason recorded"
	}
	return *r.Problem
}

// Label says what the verifier read, for a summary line: the target ref
// and its commit, or the cited commits, each short.
func (v *Verifier) Label() string {
	if v.target != nil {
		return "against " + v.target.Label()
	}
	var commits []string
	for c := range v.snaps {
		commits = append(commits, shortHex(c))
	}
	sort.Strings(commits)
	if v.def != nil && v.def.Commit == "" {
		commits = append(commits, "the plain directory")
	} else if v.def != nil {
		commits = append(commits, v.def.Label())
	}
	if len(commits) == 0 {
		return "(none could be read)"
	}
	return "at " + strings.Join(commits, ", ")
}

// targetLabel names the target ref for messages.
func (v *Verifier) targetLabel() string {
	if v.target.Ref != "" {
		return v.target.Ref
	}
	return shortHex(v.target.Commit)
}

// search looks for orig at the target ref: the same lines, other lines of
// the same file, then other files.
func (v *Verifier) search(c cite.Citation, orig []byte, sum string) Verdict {
	at := v.target
	label := v.targetLabel()
	here := func(p string, l findings.Lines) *cite.Citation {
		n := cite.Citation{Path: p, Start: l.Start, End: l.End, Hash: sum, ID: c.ID}
		if at.Commit != "" {
			n.Commit = at.Commit
			n.WebURL = c.WebURL
			if n.WebURL == "" {
				n.WebURL = at.WebURL
			}
		}
		return &n
	}
	f, err := at.Snapshot.ReadFile(c.Path)
	gone := ""
	var tl *source.TooLargeError
	switch {
	case err == nil:
		if raw, err := source.SpanBytes(f.Data, c.Start, c.End); err == nil && bytes.Equal(raw, orig) {
			return Verdict{Status: VerifyOK, Citation: c, New: here(c.Path, findings.Lines{Start: c.Start, End: c.End})}
		}
		if l, ok := FindLines(f.Data, orig, c.Start); ok {
			return Verdict{Status: VerifyMoved, Citation: c, New: here(c.Path, l)}
		}
	case errors.Is(err, source.ErrNotFound):
		gone = "does not exist"
	case errors.As(err, &tl):
		gone = "is too large to read"
	default:
		return Verdict{Status: VerifyError, Citation: c, Reason: err.Error(), Err: err}
	}
	hits, err := v.searchTree(c.Path, orig, c.Start)
	if err != nil {
		return Verdict{Status: VerifyError, Citation: c, Reason: err.Error(), Err: err}
	}
	if len(hits) > 0 {
		best := 0
		for i, h := range hits {
			if locate.SharedSuffix(h.path, c.Path) > locate.SharedSuffix(hits[best].path, c.Path) {
				best = i
			}
		}
		vd := Verdict{Status: VerifyMoved, Citation: c, New: here(hits[best].path, hits[best].lines)}
		if len(hits) > 1 {
			var others []string
			for i, h := range hits {
				if i != best {
					others = append(others, h.path)
				}
			}
			vd.Reason = "the same lines are also in " + strings.Join(others, ", ")
		}
		return vd
	}
	exts := strings.Join(searchExts(c.Path), "/")
	if gone != "" {
		return changedVerdict(c, fmt.Sprintf("%s %s at %s, and no other %s file holds the cited lines", c.Path, gone, label, exts))
	}
	return changedVerdict(c, fmt.Sprintf("the cited lines are not in %s or any other %s file at %s", c.Path, exts, label))
}

type spanHit struct {
	path  string
	lines findings.Lines
}

// searchExts are the file kinds searched for moved bytes: TypeScript,
// prompt text, and the cited file's own kind.
func searchExts(p string) []string {
	exts := []string{".ts", ".tsx", ".txt"}
	if e := path.Ext(p); e != "" && !hasString(exts, e) {
		exts = append(exts, e)
	}
	return exts
}

func hasString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// searchTree finds orig, aligned on line starts, in the target's files of
// the searched kinds other than skip. Files are filtered by bytes.Contains
// before the aligned search.
func (v *Verifier) searchTree(skip string, orig []byte, near int) ([]spanHit, error) {
	snap := v.target.Snapshot
	if !v.walked {
		v.walked = true
		// Entries whose names cannot be paths cannot be cited either.
		_, err := snap.Walk(func(e source.Entry) error {
			v.tree = append(v.tree, e)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	exts := searchExts(skip)
	var hits []spanHit
	for _, e := range v.tree {
		if e.Path == skip || !hasString(exts, path.Ext(e.Path)) {
			continue
		}
		f, err := source.ReadEntry(snap, e)
		if err != nil {
			// Too large or absent from a partial copy: it cannot be cited.
			continue
		}
		if !bytes.Contains(f.Data, orig) {
			continue
		}
		if l, ok := FindLines(f.Data, orig, near); ok {
			hits = append(hits, spanHit{e.Path, l})
		}
	}
	return hits, nil
}

// verifyNoCommit checks a plain-directory citation, which carries only a
// hash prefix: against the target ref, or the source as it is. Without the
// original bytes, only the cited file can be searched, by hashing each
// range of the same number of lines.
func (v *Verifier) verifyNoCommit(ctx context.Context, c cite.Citation) Verdict {
	at := v.target
	if at == nil {
		if v.def == nil {
			d, err := v.o.At(ctx, "")
			if err != nil {
				return Verdict{Status: VerifyError, Citation: c, Reason: err.Error(), Err: err}
			}
			v.def = d
		}
		at = v.def
	}
	f, err := at.Snapshot.ReadFile(c.Path)
	if err != nil {
		return changedVerdict(c, fmt.Sprintf("%s: %s", c.Path, readProblem(err)))
	}
	if c.Hash == "" {
		return Verdict{Status: VerifyError, Citation: c, Reason: "a citation without a commit needs a SHA-256 to check against"}
	}
	if raw, err := source.SpanBytes(f.Data, c.Start, c.End); err == nil && strings.HasPrefix(hashHex(raw), c.Hash) {
		return Verdict{Status: VerifyOK, Citation: c}
	}
	if v.target == nil {
		return changedVerdict(c, fmt.Sprintf("lines %d–%d of %s no longer hash to %s…", c.Start, c.End, c.Path, hashPrefix(c.Hash)))
	}
	n := c.End - c.Start + 1
	starts := source.LineStarts(f.Data)
	best := -1
	for s := 1; s+n-1 <= len(starts); s++ {
		from, to, err := source.SpanRange(f.Data, starts, s, s+n-1)
		if err != nil || !strings.HasPrefix(hashHex(f.Data[from:to]), c.Hash) {
			continue
		}
		if best < 0 || absInt(s-c.Start) < absInt(best-c.Start) {
			best = s
		}
	}
	if best < 0 {
		return v.relocate(changedVerdict(c, fmt.Sprintf("no %d-line range of %s hashes to %s… (without a commit only the cited file is searched)", n, c.Path, hashPrefix(c.Hash))))
	}
	nc := c
	nc.Start, nc.End = best, best+n-1
	if at.Commit != "" {
		nc.Commit, nc.WebURL = at.Commit, at.WebURL
	}
	return Verdict{Status: VerifyMoved, Citation: c, New: &nc}
}

// snapshotAt returns the snapshot of a cited commit, reading each once. A
// fetched source that lacks the commit fetches it first.
func (v *Verifier) snapshotAt(ctx context.Context, commit string) (source.Snapshot, error) {
	if s, ok := v.snaps[commit]; ok {
		return s, nil
	}
	repo, err := v.o.Repository()
	if err != nil {
		return nil, fmt.Errorf("the citation names commit %s but %w", shortHex(commit), err)
	}
	c, err := findCommit(repo, commit)
	if errors.Is(err, errNoCommit) {
		// Only a fetched source can bring it; Ensure does nothing for a
		// local repository. A fetch may start the cache afresh, with a
		// new repository.
		if ferr := v.o.Ensure(ctx, commit); ferr != nil {
			return nil, fmt.Errorf("commit %s: %w", shortHex(commit), ferr)
		}
		if repo, err = v.o.Repository(); err == nil {
			c, err = findCommit(repo, commit)
		}
	}
	if errors.Is(err, errNoCommit) {
		return nil, &source.Error{Problem: fmt.Sprintf("commit %s is not in this repository", shortHex(commit)), Remedy: source.UseClone}
	}
	if err != nil {
		return nil, err
	}
	snap, err := source.NewGitSnapshot(repo, c)
	if err != nil {
		return nil, err
	}
	v.snaps[commit] = snap
	return snap, nil
}

var errNoCommit = errors.New("no such commit")

// findCommit reads the commit a full or abbreviated id names in repo,
// errNoCommit when repo does not hold it.
func findCommit(repo *git.Repository, id string) (*object.Commit, error) {
	if len(id) == 40 {
		c, err := repo.CommitObject(plumbing.NewHash(id))
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return nil, errNoCommit
		}
		if err != nil {
			return nil, fmt.Errorf("read commit %s: %v", shortHex(id), err)
		}
		return c, nil
	}
	c, err := source.ResolveCommit(repo, id)
	if err != nil {
		if strings.Contains(err.Error(), "ambiguous") {
			return nil, fmt.Errorf("abbreviated commit %s matches several commits; cite the full id", id)
		}
		return nil, errNoCommit
	}
	return c, nil
}

// FindLines finds want in data at a line start (and, when want does not end
// in a newline, at the end of data, as the hash rule requires), and returns
// the line range it covers. Of several places, the one starting nearest to
// line near wins (the earlier on a tie).
func FindLines(data, want []byte, near int) (findings.Lines, bool) {
	if len(want) == 0 {
		return findings.Lines{}, false
	}
	n := bytes.Count(want, []byte("\n"))
	if want[len(want)-1] != '\n' {
		n++
	}
	var best findings.Lines
	found := false
	line, counted := 1, 0
	for off := 0; off+len(want) <= len(data); {
		i := bytes.Index(data[off:], want)
		if i < 0 {
			break
		}
		i += off
		off = i + 1
		if i > 0 && data[i-1] != '\n' {
			continue
		}
		if want[len(want)-1] != '\n' && i+len(want) != len(data) {
			continue
		}
		line += bytes.Count(data[counted:i], []byte("\n"))
		counted = i
		l := findings.Lines{Start: line, End: line + n - 1}
		if !found || absInt(l.Start-near) < absInt(best.Start-near) {
			best, found = l, true
		}
	}
	return best, found
}

func changedVerdict(c cite.Citation, reason string) Verdict {
	return Verdict{Status: VerifyChanged, Citation: c, Reason: reason}
}

func readProblem(err error) string {
	if errors.Is(err, source.ErrNotFound) {
		return "file not found"
	}
	return err.Error()
}

func hashHex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func hashPrefix(h string) string {
	if len(h) > cite.HashPrefixLen {
		return h[:cite.HashPrefixLen]
	}
	return h
}

func shortHex(c string) string {
	if len(c) > findings.ShortCommitLen {
		return c[:findings.ShortCommitLen]
	}
	return c
}

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
