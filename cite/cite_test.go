package cite

import (
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/recordtest"
)

const (
	testCommit = "127bdb30784d508cc556c71a0f32b508a3061517"
	testWeb    = "https://github.com/anomalyco/opencode"
	testHash   = "52706258c343aca530cb9bbae722b2d00da6eff0e8d8013a097f78076fd76858"
)

func TestCitationFormat(t *testing.T) {
	tests := []struct {
		name string
		c    Citation
		want string
	}{
		{
			name: "the cite format",
			c:    Citation{Path: "packages/opencode/src/session/system.ts", Start: 27, End: 42, Commit: testCommit, WebURL: testWeb, Hash: testHash[:12]},
			want: "[packages/opencode/src/session/system.ts L27–42 @127bdb3](https://github.com/anomalyco/opencode/blob/127bdb30784d508cc556c71a0f32b508a3061517/packages/opencode/src/session/system.ts#L27-L42) · SHA-256 52706258c343…",
		},
		{
			name: "plain directory: no commit, no link, path in a code span",
			c:    Citation{Path: "src/session/system.ts", Start: 3, End: 3, Hash: testHash[:12]},
			want: "`src/session/system.ts` L3–3 · SHA-256 52706258c343…",
		},
		{
			name: "bare permalink: no hash",
			c:    Citation{Path: "a.ts", Start: 1, End: 2, Commit: testCommit, WebURL: testWeb},
			want: "[a.ts L1–2 @127bdb3](https://github.com/anomalyco/opencode/blob/127bdb30784d508cc556c71a0f32b508a3061517/a.ts#L1-L2)",
		},
		{
			name: "Markdown punctuation in the path is escaped, the URL percent-escaped",
			c:    Citation{Path: "app/routes/[id]/__x (1).tsx", Start: 1, End: 2, Commit: testCommit, WebURL: testWeb, Hash: testHash[:12]},
			want: `[app/routes/\[id\]/\_\_x (1).tsx L1–2 @127bdb3](https://github.com/anomalyco/opencode/blob/127bdb30784d508cc556c71a0f32b508a3061517/app/routes/%5Bid%5D/__x%20%281%29.tsx#L1-L2) · SHA-256 52706258c343…`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.c.Format()
			if got != tt.want {
				t.Errorf("Format:\n got %s\nwant %s", got, tt.want)
			}
			back, err := Parse(got)
			if err != nil {
				t.Fatalf("Parse(Format): %v", err)
			}
			if back != tt.c {
				t.Errorf("round trip:\n got %+v\nwant %+v", back, tt.c)
			}
		})
	}
}

func TestParseCitation(t *testing.T) {
	link := "https://github.com/anomalyco/opencode/blob/" + testCommit + "/packages/opencode/src/session/system.ts#L27-L42"
	want := Citation{Path: "packages/opencode/src/session/system.ts", Start: 27, End: 42, Commit: testCommit, WebURL: testWeb}
	withHash := want
	withHash.Hash = testHash[:12]
	full := want
	full.Hash = testHash
	tests := []struct {
		in      string
		want    Citation
		wantErr string
	}{
		{in: "[packages/opencode/src/session/system.ts L27–42 @127bdb3](" + link + ") · SHA-256 52706258c343…", want: withHash},
		{in: "  [packages/opencode/src/session/system.ts L27-42 @127BDB3](" + link + ")   ·  SHA-256 52706258C343...  ", want: withHash},
		{in: "[packages/opencode/src/session/system.ts L27–42 @127bdb3](" + link + ") · SHA-256 " + testHash, want: full},
		{in: link, want: want},
		{in: link + "?plain=1", wantErr: "line anchor"},
		{in: strings.Replace(link, "#L27", "?plain=1#L27", 1), want: want},
		{in: strings.Replace(link, "-L42", "", 1), want: Citation{Path: want.Path, Start: 27, End: 27, Commit: testCommit, WebURL: testWeb}},
		{in: "`src/a.ts` L3–9 · SHA-256 52706258c343…", want: Citation{Path: "src/a.ts", Start: 3, End: 9, Hash: testHash[:12]}},
		{in: "[packages/opencode/src/session/other.ts L27–42 @127bdb3](" + link + ")", wantErr: "names packages/opencode/src/session/other.ts but its permalink"},
		{in: "[packages/opencode/src/session/system.ts L27–43 @127bdb3](" + link + ")", wantErr: "lines 27–43 but its permalink 27–42"},
		{in: "[packages/opencode/src/session/system.ts L27–42 @aaaaaaa](" + link + ")", wantErr: "commit aaaaaaa"},
		{in: "[packages/opencode/src/session/system.ts L27–42 @127bdb3](" + link + ") · SHA-256 5270625", wantErr: "not a citation"},
		{in: "https://github.com/anomalyco/opencode/blob/dev/packages/x.ts#L1-L2", wantErr: "not a commit id"},
		{in: "https://github.com/anomalyco/opencode/blob/" + testCommit + "/../x.ts#L1-L2", wantErr: "clean repo-relative"},
		{in: "https://github.com/anomalyco/opencode/blob/" + testCommit + "/x.ts#L9-L2", wantErr: "1 ≤ start ≤ end"},
		{in: "https://github.com/anomalyco/opencode/blob/" + testCommit + "/x.ts", wantErr: "no #L"},
		{in: "https://github.com/anomalyco/opencode/tree/" + testCommit + "/x.ts#L1", wantErr: "no /blob/"},
		{in: "http://\f/blob/0000/0#L1", wantErr: "odd characters in the web URL"},
		{in: "https://git\u00a0hub.com/o/r/blob/" + testCommit + "/x.ts#L1", wantErr: "odd characters in the web URL"},
		{in: "system.ts L27–42", wantErr: "not a citation"},
		{in: "`src/a.ts` L3–9", wantErr: "not a citation"},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Parse(%q) = %+v, %v; want error containing %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Parse(%q):\n got %+v\nwant %+v", tt.in, got, tt.want)
		}
	}
}

func TestFindCitations(t *testing.T) {
	c1 := Citation{Path: "src/a.ts", Start: 1, End: 5, Commit: testCommit, WebURL: testWeb, Hash: testHash[:12]}
	c2 := Citation{Path: "src/b.ts", Start: 7, End: 7, Hash: testHash[:12]}
	bad := "[src/c.ts L1–2 @127bdb3](https://github.com/anomalyco/opencode/blob/" + testCommit + "/src/d.ts#L1-L2) · SHA-256 52706258c343…"
	text := "# Notes\n\nSee [the docs](https://example.com/docs) and [src/x.ts](https://example.com/x).\n\n" +
		"- routing: " + c1.Format() + "\n- local: " + c2.Format() + ", then\n- broken: " + bad + "\n"
	found := Find(text)
	if len(found) != 3 {
		t.Fatalf("found %d citations, want 3: %+v", len(found), found)
	}
	if found[0].Err != nil || found[0].Citation != c1 {
		t.Errorf("first: %+v", found[0])
	}
	if found[1].Err != nil || found[1].Citation != c2 {
		t.Errorf("second: %+v", found[1])
	}
	if found[2].Err == nil || found[2].Text != bad {
		t.Errorf("third should be reported broken: %+v", found[2])
	}
}

func TestCiteRecord(t *testing.T) {
	r := recordtest.Located("a", "src/a.ts", 4, "x\ny\n", nil)
	r.Location.Permalink = testWeb + "/blob/" + testCommit + "/src/a.ts#L4-L5"
	d := recordtest.Doc(r)
	d.Source.Commit = recordtest.Ptr(testCommit)
	c, err := Record(d, r)
	if err != nil {
		t.Fatal(err)
	}
	want := "[src/a.ts L4–5 @127bdb3](" + r.Location.Permalink + ") · SHA-256 " + (r.Location.SHA256)[:12] + "… · a"
	if got := c.Short().Format(); got != want {
		t.Errorf("cite:\n got %s\nwant %s", got, want)
	}
	if c.Permalink() != r.Location.Permalink {
		t.Errorf("permalink %s, want the record's %s", c.Permalink(), r.Location.Permalink)
	}
	if _, err := Record(d, recordtest.NotLocated("b", findings.StatusAmbiguous, "2 places match")); err == nil || !strings.Contains(err.Error(), "b is ambiguous: 2 places match") {
		t.Errorf("not located: %v", err)
	}
	// Without a permalink the record is still cited at the document's
	// commit (never at whatever the repository's HEAD is).
	d.Source.Repo = testWeb
	bare := r.Clone()
	bare.Location.Permalink = ""
	if c, err := Record(d, bare); err != nil || c.Commit != testCommit || c.Permalink() != r.Location.Permalink {
		t.Errorf("no permalink: %+v, %v; want the citation at %s", c, err, testCommit)
	}
	other := r.Clone()
	other.Location.Permalink = testWeb + "/blob/" + strings.Repeat("0", 40) + "/src/a.ts#L4-L5"
	if _, err := Record(d, other); err == nil || !strings.Contains(err.Error(), "does not name the document's commit") {
		t.Errorf("permalink at another commit: %v", err)
	}
}

func FuzzParseCitation(f *testing.F) {
	f.Add("[packages/opencode/src/session/system.ts L27–42 @127bdb3](https://github.com/anomalyco/opencode/blob/" + testCommit + "/packages/opencode/src/session/system.ts#L27-L42) · SHA-256 52706258c343…")
	f.Add("https://github.com/anomalyco/opencode/blob/" + testCommit + "/a%20b/%5Bc%5D.ts?plain=1#L1")
	f.Add("`src/a.ts` L3–9 · SHA-256 52706258c343…")
	f.Add(`[a\\b \[x\] L1 L2–3 @abcd](http://h/blob/abcdef/a%5Cb%20%5Bx%5D%20L1#L2-L3)`)
	f.Add("http://\f/blob/0000/0#L1")
	f.Add("[src/a.ts L1–5 @127bdb3](https://github.com/anomalyco/opencode/blob/" + testCommit + "/src/a.ts#L1-L5) · SHA-256 52706258c343… · system-prompt-routing")
	f.Add("`src/a.ts` L3–9 · SHA-256 52706258c343… · tool-bash")
	f.Add("https://gitlab.com/o/r/-/blob/" + testCommit + "/src/a%23b.ts#L27-42")
	f.Add("https://codeberg.org/o/r/src/commit/" + testCommit + "/src/a.ts#L27-L42")
	f.Add("https://git.example.org/o/r/-/blob/abcdef0/a.ts#L1")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			return
		}
		text := c.Format()
		back, err := Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q) = %+v, but its Format %q does not parse: %v", s, c, text, err)
		}
		if back != c {
			t.Fatalf("round trip of %q:\n got %+v\nwant %+v", text, back, c)
		}
		found := Find("x " + text + " y")
		if len(found) != 1 || found[0].Err != nil || found[0].Citation != c {
			t.Fatalf("Find(%q) = %+v, want %+v", text, found, c)
		}
	})
}

// TestFindCitationHashTails reads the hash however Markdown carries it
// (wrapped, with a colon, in a code span) and never drops one it cannot
// read: that citation is reported broken, not checked without its hash.
func TestFindCitationHashTails(t *testing.T) {
	link := "[src/a.ts L1–5 @127bdb3](" + testWeb + "/blob/" + testCommit + "/src/a.ts#L1-L5)"
	want := Citation{Path: "src/a.ts", Start: 1, End: 5, Commit: testCommit, WebURL: testWeb, Hash: "000000000000"}
	for _, tail := range []string{" · SHA-256 000000000000…", " ·\nSHA-256 000000000000…", " · SHA-256: 000000000000…", " · SHA-256 `000000000000…`"} {
		found := Find("See " + link + tail + " here.\n")
		if len(found) != 1 || found[0].Err != nil || found[0].Citation != want {
			t.Errorf("tail %q: %+v, want %+v", tail, found, want)
		}
	}
	for _, tail := range []string{" · SHA-256 zz0000000000…", " ·\nSHA-256 0000…"} {
		found := Find("See " + link + tail + "\n")
		if len(found) != 1 || found[0].Err == nil || !strings.Contains(found[0].Err.Error(), "not 12 to 64 hex digits") {
			t.Errorf("tail %q: %+v, want an error", tail, found)
		}
	}
}

// TestIsWebURL accepts exactly the web URLs whose permalinks parse again.
func TestIsWebURL(t *testing.T) {
	for s, want := range map[string]bool{
		testWeb:                        true,
		"http://git.example.org/a/b":   true,
		"/srv/opencode":                false,
		"javascript:alert(1)":          false,
		"https://":                     false,
		"https:///path":                false,
		"https://example.org/a?b=1":    false,
		"https://example.org/a b":      false,
		"https://exämple.org/opencode": false,
	} {
		if got := IsWebURL(s); got != want {
			t.Errorf("IsWebURL(%q) = %v, want %v", s, got, want)
		}
		if c := (Citation{Path: "a.ts", Start: 1, End: 1, Commit: testCommit, WebURL: s}); want {
			if _, err := Parse(c.Format()); err != nil {
				t.Errorf("citation with web URL %q does not parse: %v", s, err)
			}
		}
	}
}

// TestCitationID writes the finding id after the hash and reads it back;
// citations without it, written before it existed, still parse.
func TestCitationID(t *testing.T) {
	c := Citation{Path: "src/a.ts", Start: 1, End: 5, Commit: testCommit, WebURL: testWeb, Hash: testHash[:12], ID: "system-prompt-routing"}
	text := c.Format()
	if !strings.HasSuffix(text, "· SHA-256 52706258c343… · system-prompt-routing") {
		t.Errorf("Format = %s, want the id after the hash", text)
	}
	for _, in := range []string{text, "  " + text + "  "} {
		if back, err := Parse(in); err != nil || back != c {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, back, err, c)
		}
	}
	old := c
	old.ID = ""
	if back, err := Parse(old.Format()); err != nil || back != old {
		t.Errorf("old citation %q: %+v, %v", old.Format(), back, err)
	}
	dir := Citation{Path: "src/a.ts", Start: 3, End: 9, Hash: testHash[:12], ID: "tool-bash-42"}
	if back, err := Parse(dir.Format()); err != nil || back != dir {
		t.Errorf("plain-directory citation %q: %+v, %v", dir.Format(), back, err)
	}
	// Without a hash there is no id: a word after a link is prose.
	noHash := c
	noHash.Hash = ""
	if got := noHash.Format(); strings.Contains(got, "routing") {
		t.Errorf("Format without a hash = %s, want no id", got)
	}
	for _, bad := range []string{text + "x_", text + " · other", strings.Replace(text, "system-prompt-routing", "System", 1)} {
		if got, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", bad, got)
		}
	}
	// In Markdown: in a code span, followed by punctuation, and in prose.
	md := "Cite as: `" + text + "`.\n\n- " + old.Format() + " · See below.\n- " + dir.Format() + ", then\n"
	found := Find(md)
	want := []Citation{c, old, dir}
	if len(found) != len(want) {
		t.Fatalf("found %d citations, want %d: %+v", len(found), len(want), found)
	}
	for i, f := range found {
		if f.Err != nil || f.Citation != want[i] {
			t.Errorf("citation %d: %+v, want %+v", i, f, want[i])
		}
	}
}

// TestPermalinkForges writes each host's own permalink layout and reads
// every layout back, whatever the host.
func TestPermalinkForges(t *testing.T) {
	tests := []struct {
		web, want string
	}{
		{testWeb, testWeb + "/blob/" + testCommit + "/src/a%23b.ts#L27-L42"},
		{"https://git.example.org/o/r", "https://git.example.org/o/r/blob/" + testCommit + "/src/a%23b.ts#L27-L42"},
		{"https://gitlab.com/o/r", "https://gitlab.com/o/r/-/blob/" + testCommit + "/src/a%23b.ts#L27-42"},
		{"https://gitlab.example.org/group/sub/r", "https://gitlab.example.org/group/sub/r/-/blob/" + testCommit + "/src/a%23b.ts#L27-42"},
		{"https://codeberg.org/o/r", "https://codeberg.org/o/r/src/commit/" + testCommit + "/src/a%23b.ts#L27-L42"},
		{"https://gitea.example.org/o/r", "https://gitea.example.org/o/r/src/commit/" + testCommit + "/src/a%23b.ts#L27-L42"},
	}
	for _, tt := range tests {
		c := Citation{Path: "src/a#b.ts", Start: 27, End: 42, Commit: testCommit, WebURL: tt.web, Hash: testHash[:12], ID: "x"}
		if got := c.Permalink(); got != tt.want {
			t.Errorf("Permalink at %s:\n got %s\nwant %s", tt.web, got, tt.want)
		}
		if got := BlobURL(tt.web, testCommit, c.Path); !strings.HasPrefix(tt.want, got+"#") {
			t.Errorf("BlobURL at %s = %s, want the permalink's part before #", tt.web, got)
		}
		for _, in := range []string{c.Format(), tt.want} {
			back, err := Parse(in)
			want := c
			if in == tt.want {
				want.Hash, want.ID = "", ""
			}
			if err != nil || back != want {
				t.Errorf("Parse(%q) = %+v, %v; want %+v", in, back, err, want)
			}
		}
	}
	// A layout on a host that does not use it by name round-trips too.
	in := "https://git.example.org/o/r/-/blob/" + testCommit + "/a.ts#L1-2"
	c, err := Parse(in)
	if err != nil || c.WebURL != "https://git.example.org/o/r" || c.Forge != ForgeGitLab || c.Permalink() != in {
		t.Errorf("GitLab layout on another host: %+v, %v; permalink %s", c, err, c.Permalink())
	}
	if IsWebURL("https://example.org/o/r/blob/x") {
		t.Error("IsWebURL accepts a web URL holding /blob/, whose permalinks would not parse back")
	}
}
