package cite

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/mdtext"
)

// Citation points at lines of one file at one commit, with (a prefix of)
// the SHA-256 of those lines under the hash rule, and the id of the finding
// it cites. Its text form, written by Format and read by Parse, is
//
//	[<path> L<a>–<b> @<commit 7>](<permalink>) · SHA-256 <12 hex>… · <id>
//
// For a plain-directory source there is no commit and no permalink, so the
// link and the @commit are dropped and the path goes in a code span:
//
//	`<path>` L<a>–<b> · SHA-256 <12 hex>… · <id>
//
// The id comes last, after the hash, so that citations written before it
// existed (which end at the hash) still parse, and so that a word after a
// link that has no hash is never taken for one.
type Citation struct {
	// Path is the repo-relative file path.
	Path string
	// Start and End are the 1-based, inclusive line range.
	Start, End int
	// Commit is the lowercase hex commit id (full, or abbreviated when the
	// permalink was); "" for a plain-directory source.
	Commit string
	// WebURL is the repository's web URL, the permalink's part before
	// "/blob/" (or GitLab's "/-/blob/", Gitea's "/src/commit/"); "" for a
	// plain-directory source.
	WebURL string
	// Forge is the permalink layout; ForgeAuto (the zero value) takes it
	// from WebURL's host (see ForgeOf).
	Forge Forge
	// Hash is the lowercase hex SHA-256 or a prefix of it (12 digits in
	// the cite format); "" when the citation gave none (a bare permalink).
	Hash string
	// ID is the cited finding's record id; "" when the citation names
	// none (citations written before ids were part of the format). The
	// text form carries it only after a hash.
	ID string
}

// HashPrefixLen is how many hex digits of the SHA-256 a citation shows.
const HashPrefixLen = 12

// HasCommit reports whether the citation names a commit and a permalink.
func (c Citation) HasCommit() bool { return c.Commit != "" && c.WebURL != "" }

// Permalink returns the citation's permalink, "" without a commit: the
// file's BlobURL with the host's line anchor.
func (c Citation) Permalink() string {
	if !c.HasCommit() {
		return ""
	}
	f := c.Forge.of(c.WebURL)
	return f.blobURL(c.WebURL, c.Commit, c.Path) + f.lineAnchor(c.Start, c.End)
}

// Forge is the URL layout of a code host's file views.
type Forge int

// Permalink layouts. The one of a web URL is chosen by ForgeOf.
const (
	// ForgeAuto means: as ForgeOf says for the web URL.
	ForgeAuto Forge = iota
	// ForgeGitHub is <web>/blob/<commit>/<path>#L<a>-L<b>.
	ForgeGitHub
	// ForgeGitLab is <web>/-/blob/<commit>/<path>#L<a>-<b>.
	ForgeGitLab
	// ForgeGitea is <web>/src/commit/<commit>/<path>#L<a>-L<b> (Gitea,
	// Forgejo, Codeberg).
	ForgeGitea
)

// forgeMarkers are the path parts that separate a permalink's web URL from
// its commit, per layout.
var forgeMarkers = map[Forge]string{ForgeGitHub: "/blob/", ForgeGitLab: "/-/blob/", ForgeGitea: "/src/commit/"}

// ForgeOf returns the permalink layout of a web URL by its host name:
// GitLab when the host contains "gitlab" (gitlab.com, gitlab.example.org);
// Gitea when it is codeberg.org or contains "gitea" or "forgejo"; GitHub
// for every other host, github.com included.
func ForgeOf(web string) Forge {
	host := web
	if _, rest, ok := strings.Cut(host, "://"); ok {
		host = rest
	}
	host, _, _ = strings.Cut(host, "/")
	host = strings.ToLower(host)
	switch {
	case strings.Contains(host, "gitlab"):
		return ForgeGitLab
	case host == "codeberg.org" || strings.HasSuffix(host, ".codeberg.org") || strings.Contains(host, "gitea") || strings.Contains(host, "forgejo"):
		return ForgeGitea
	}
	return ForgeGitHub
}

// of resolves ForgeAuto for web.
func (f Forge) of(web string) Forge {
	if f == ForgeAuto {
		return ForgeOf(web)
	}
	return f
}

// BlobURL returns the web address of the file at path in commit, in the
// layout of web's host (ForgeOf). Path segments are percent-escaped, which
// leaves ordinary paths as they are. Every link to a file at a commit is
// made here.
func BlobURL(web, commit, path string) string {
	return ForgeOf(web).blobURL(web, commit, path)
}

func (f Forge) blobURL(web, commit, p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return web + forgeMarkers[f.of(web)] + commit + "/" + strings.Join(segs, "/")
}

// lineAnchor is the fragment that selects lines a..b.
func (f Forge) lineAnchor(a, b int) string {
	if f == ForgeGitLab {
		return fmt.Sprintf("#L%d-%d", a, b)
	}
	return fmt.Sprintf("#L%d-L%d", a, b)
}

// Format returns the citation in the cite format. Markdown punctuation in
// the path (brackets, backslash, emphasis and code markers, <, >, &) is
// backslash-escaped in the link text; ordinary paths appear verbatim.
func (c Citation) Format() string {
	var b strings.Builder
	if c.HasCommit() {
		short := c.Commit
		if len(short) > findings.ShortCommitLen {
			short = short[:findings.ShortCommitLen]
		}
		fmt.Fprintf(&b, "[%s L%d–%d @%s](%s)", escapeLinkText(c.Path), c.Start, c.End, short, c.Permalink())
	} else {
		fmt.Fprintf(&b, "`%s` L%d–%d", c.Path, c.Start, c.End)
	}
	if c.Hash != "" {
		b.WriteString(" · SHA-256 ")
		b.WriteString(c.Hash)
		if len(c.Hash) < 64 {
			b.WriteString("…")
		}
		if c.ID != "" {
			b.WriteString(" · ")
			b.WriteString(c.ID)
		}
	}
	return b.String()
}

const linkTextSpecial = "\\[]`*_<>&"

func escapeLinkText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(linkTextSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unescapeLinkText undoes CommonMark backslash escapes: a backslash before
// ASCII punctuation stands for that character; before anything else it is
// literal. A trailing lone backslash is an error.
func unescapeLinkText(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 == len(s) {
			return "", errors.New("link text ends in a lone backslash")
		}
		if isASCIIPunct(s[i+1]) {
			i++
			b.WriteByte(s[i])
			continue
		}
		b.WriteByte('\\')
	}
	return b.String(), nil
}

func isASCIIPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

const (
	linesPat = `L(\d{1,9})(?:[–-]L?(\d{1,9}))?`
	// The hash tail as Format writes it, and as Markdown may carry it:
	// wrapped onto the next line, with a colon, or as a code span.
	hashPat = `[ \t]*(?:\r?\n[ \t]*)?·[ \t]*(?:\r?\n[ \t]*)?SHA-256:?(?:[ \t]+|[ \t]*\r?\n[ \t]*)` + "`?" + `([0-9a-fA-F]{12,64})(?:…|\.\.\.)?` + "`?"
	// The finding id after the hash: a kebab-case slug, as definition ids
	// and record ids are, ending at a word boundary.
	idPat   = `(?:[ \t]*·[ \t]*([a-z0-9]+(?:-[a-z0-9]+)*)\b)?`
	linkPat = `\[((?:\\.|[^\\\[\]\n])+)\]\(([^\s()<>]+)\)`
	dirPat  = "`([^`\n]+)` " + linesPat
)

var (
	linkRe     = regexp.MustCompile(`^` + linkPat + `(?:` + hashPat + idPat + `)?$`)
	dirRe      = regexp.MustCompile(`^` + dirPat + hashPat + idPat + `$`)
	linkTextRe = regexp.MustCompile(`^(.+) ` + linesPat + ` @([0-9a-fA-F]{4,40})$`)
	fragmentRe = regexp.MustCompile(`^L(\d{1,9})(?:-L?(\d{1,9}))?$`)
	hexRe      = regexp.MustCompile(`^[0-9a-f]{4,40}$`)
	// tailRe finds a hash tail that hashPat could not read.
	tailRe = regexp.MustCompile(`^\s*·\s*SHA-256`)
	scanRe = regexp.MustCompile(linkPat + `(?:` + hashPat + idPat + `)?|` + dirPat + hashPat + idPat)
)

// Parse reads a citation in the cite format (either form) or a
// bare permalink (…/blob/<commit>/<path>#L<a>-L<b>, giving no hash). The
// link text must agree with the permalink on path, lines and commit.
func Parse(s string) (Citation, error) {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) {
		return Citation{}, errors.New("citation is not valid UTF-8")
	}
	switch {
	case strings.HasPrefix(s, "["):
		return parseLink(s)
	case strings.HasPrefix(s, "`"):
		return parseDir(s)
	case strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://"):
		if strings.ContainsAny(s, " \t\n\r") {
			return Citation{}, fmt.Errorf("permalink %q contains white space", s)
		}
		return ParsePermalink(s)
	}
	return Citation{}, fmt.Errorf("%q is not a citation: want [<path> L<a>–<b> @<commit>](<permalink>) · SHA-256 <hex>… or a permalink", mdtext.Clip(s))
}

func parseLink(s string) (Citation, error) {
	m := linkRe.FindStringSubmatch(s)
	if m == nil {
		return Citation{}, fmt.Errorf("%q is not a citation: want [<path> L<a>–<b> @<commit>](<permalink>) · SHA-256 <hex>…", mdtext.Clip(s))
	}
	text, link, hash, id := m[1], m[2], m[3], m[4]
	c, err := ParsePermalink(link)
	if err != nil {
		return Citation{}, err
	}
	t := linkTextRe.FindStringSubmatch(text)
	if t == nil {
		return Citation{}, fmt.Errorf("link text %q is not <path> L<a>–<b> @<commit>", mdtext.Clip(text))
	}
	p, err := unescapeLinkText(t[1])
	if err != nil {
		return Citation{}, err
	}
	start, end, err := lineRange(t[2], t[3])
	if err != nil {
		return Citation{}, err
	}
	commit := strings.ToLower(t[4])
	switch {
	case p != c.Path:
		return Citation{}, fmt.Errorf("citation text names %s but its permalink %s", p, c.Path)
	case start != c.Start || end != c.End:
		return Citation{}, fmt.Errorf("citation text says lines %d–%d but its permalink %d–%d", start, end, c.Start, c.End)
	case !strings.HasPrefix(c.Commit, commit) && !strings.HasPrefix(commit, c.Commit):
		return Citation{}, fmt.Errorf("citation text says commit %s but its permalink %s", commit, c.Commit)
	}
	c.Hash = strings.ToLower(hash)
	c.ID = id
	return c, nil
}

func parseDir(s string) (Citation, error) {
	m := dirRe.FindStringSubmatch(s)
	if m == nil {
		return Citation{}, fmt.Errorf("%q is not a citation: want `<path>` L<a>–<b> · SHA-256 <hex>…", mdtext.Clip(s))
	}
	if err := findings.CheckPath(m[1]); err != nil {
		return Citation{}, err
	}
	start, end, err := lineRange(m[2], m[3])
	if err != nil {
		return Citation{}, err
	}
	return Citation{Path: m[1], Start: start, End: end, Hash: strings.ToLower(m[4]), ID: m[5]}, nil
}

// ParsePermalink reads a permalink in any layout Permalink writes:
// <web URL>/blob/<commit>/<path>#L<a>-L<b> (GitHub),
// <web URL>/-/blob/<commit>/<path>#L<a>-<b> (GitLab) or
// <web URL>/src/commit/<commit>/<path>#L<a>-L<b> (Gitea), each also with
// #L<a> for one line. The first of those markers in the URL ends the web
// URL. A query string (GitHub's ?plain=1) is ignored.
func ParsePermalink(s string) (Citation, error) {
	bad := func(why string) (Citation, error) {
		return Citation{}, fmt.Errorf("permalink %q: %s; want <web URL>/blob/<commit>/<path>#L<a>-L<b>", mdtext.Clip(s), why)
	}
	scheme := ""
	switch {
	case strings.HasPrefix(s, "https://"):
		scheme = "https://"
	case strings.HasPrefix(s, "http://"):
		scheme = "http://"
	default:
		return bad("not an http(s) URL")
	}
	forge, i := firstMarker(s[len(scheme):])
	if i <= 0 {
		return bad("no /blob/")
	}
	web := s[:len(scheme)+i]
	if !plainWebURL(web) {
		return bad("odd characters in the web URL")
	}
	rest := s[len(scheme)+i+len(forgeMarkers[forge]):]
	hash := strings.IndexByte(rest, '#')
	if hash < 0 {
		return bad("no #L<a>-L<b> line anchor")
	}
	frag := rest[hash+1:]
	rest = rest[:hash]
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		rest = rest[:q]
	}
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return bad("no path after the commit")
	}
	commit := strings.ToLower(rest[:slash])
	if !hexRe.MatchString(commit) {
		return bad(fmt.Sprintf("%q is not a commit id (a permalink names a commit, not a branch or tag)", mdtext.Clip(rest[:slash])))
	}
	p, err := url.PathUnescape(rest[slash+1:])
	if err != nil {
		return bad("bad percent-escape in the path")
	}
	if err := findings.CheckPath(p); err != nil {
		return Citation{}, err
	}
	f := fragmentRe.FindStringSubmatch(frag)
	if f == nil {
		return bad(fmt.Sprintf("line anchor #%s is not #L<a>-L<b>", mdtext.Clip(frag)))
	}
	start, end, err := lineRange(f[1], f[2])
	if err != nil {
		return Citation{}, err
	}
	if forge == ForgeOf(web) {
		// Written as the host's own layout: Permalink gives it back.
		forge = ForgeAuto
	}
	return Citation{Path: p, Start: start, End: end, Commit: commit, WebURL: web, Forge: forge}, nil
}

// firstMarker finds the earliest layout marker in s: its layout and
// index, or -1.
func firstMarker(s string) (Forge, int) {
	best, at := ForgeAuto, -1
	for _, f := range []Forge{ForgeGitHub, ForgeGitLab, ForgeGitea} {
		if i := strings.Index(s, forgeMarkers[f]); i >= 0 && (at < 0 || i < at) {
			best, at = f, i
		}
	}
	return best, at
}

// IsWebURL reports whether s can be the web URL of permalinks: http(s),
// a host, and only the characters plainWebURL allows, so that citations
// written with it parse again.
func IsWebURL(s string) bool {
	rest, ok := strings.CutPrefix(s, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(s, "http://")
	}
	if _, i := firstMarker(s); i >= 0 {
		// A permalink would end the web URL at its own marker.
		return false
	}
	return ok && rest != "" && !strings.HasPrefix(rest, "/") && plainWebURL(s)
}

// plainWebURL reports whether a permalink's web URL uses only printable
// ASCII other than the characters that end or break a Markdown link
// destination or a URL's path (white space, control bytes, #?\()<>), so
// that Format writes it back into a link that parses again.
func plainWebURL(web string) bool {
	for i := 0; i < len(web); i++ {
		c := web[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("#?\\()<>", c) >= 0 {
			return false
		}
	}
	return true
}

func lineRange(a, b string) (int, int, error) {
	start, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, fmt.Errorf("line %q: %v", a, err)
	}
	end := start
	if b != "" {
		if end, err = strconv.Atoi(b); err != nil {
			return 0, 0, fmt.Errorf("line %q: %v", b, err)
		}
	}
	if start < 1 || end < start {
		return 0, 0, fmt.Errorf("lines %d–%d: want 1 ≤ start ≤ end", start, end)
	}
	return start, end, nil
}

// Found is a citation found in a text: its text as written, and
// the citation or why it does not parse.
type Found struct {
	Text     string
	Citation Citation
	Err      error
}

// Find returns the citations in a Markdown text, in order. Links
// that neither carry a "· SHA-256" tail nor have citation-shaped text
// (<path> L<a>–<b> @<commit>) are ordinary links and are skipped; a
// citation-shaped one that does not parse is returned with Err set.
//
// A citation followed by a "· SHA-256" tail whose hash cannot be read is
// returned with Err set too: checking it without its hash would report ok
// for a hash nobody checked.
func Find(text string) []Found {
	var out []Found
	for _, ix := range scanRe.FindAllStringSubmatchIndex(text, -1) {
		group := func(i int) string {
			if ix[2*i] < 0 {
				return ""
			}
			return text[ix[2*i]:ix[2*i+1]]
		}
		// Groups: link text 1, destination 2, hash 3, id 4; plain-directory
		// path 5.
		whole, hashed := group(0), group(3) != "" || group(5) != ""
		if !hashed && !linkTextRe.MatchString(group(1)) {
			continue
		}
		if !hashed && tailRe.MatchString(text[ix[1]:]) {
			out = append(out, Found{Text: whole, Err: fmt.Errorf("%q is followed by a SHA-256 that is not 12 to 64 hex digits; write it as · SHA-256 <hex>…", mdtext.Clip(whole))})
			continue
		}
		c, err := Parse(whole)
		out = append(out, Found{Text: whole, Citation: c, Err: err})
	}
	return out
}

// Record returns the citation of a located record of doc.
func Record(doc *findings.Document, r *findings.Record) (Citation, error) {
	if !r.Located() {
		return Citation{}, fmt.Errorf("finding %s is %s: %s", r.ID, r.Status, r.ProblemText())
	}
	c := Citation{Path: r.Location.Path, Start: r.Location.Lines.Start, End: r.Location.Lines.End, Hash: r.Location.SHA256}
	if findings.ValidID(r.ID) {
		// An id the text form cannot carry is left out, not mangled.
		c.ID = r.ID
	}
	if doc.Source.Commit == nil {
		return c, nil
	}
	// A record of a git source is cited at the document's commit, whatever
	// its permalink says; a permalink naming another commit is a record
	// that was edited, not one to check somewhere else.
	commit := *doc.Source.Commit
	web := strings.TrimSuffix(doc.Source.Repo, "/")
	if r.Location.Permalink != "" {
		p, err := ParsePermalink(r.Location.Permalink)
		if err != nil || p.Commit != commit {
			return Citation{}, fmt.Errorf("finding %s: its permalink does not name the document's commit %s", r.ID, commit)
		}
		web, c.Forge = p.WebURL, p.Forge
	}
	if web == "" {
		return Citation{}, fmt.Errorf("finding %s has no permalink and the document no source.repo: nothing says where commit %s is", r.ID, commit)
	}
	c.Commit, c.WebURL = commit, web
	return c, nil
}

// Short returns the citation with its hash cut to the cite format's
// HashPrefixLen digits.
func (c Citation) Short() Citation {
	if len(c.Hash) > HashPrefixLen {
		c.Hash = c.Hash[:HashPrefixLen]
	}
	return c
}
