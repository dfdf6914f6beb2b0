package site

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestValidCodeNotMarked highlights valid TypeScript and TSX (template
// literals with every kind of escape, nested templates, regular
// expressions with any flags, a division at the start of a line, type
// arguments, JSX text with symbols) and checks that no token is drawn as
// an error, in the tokens and on the rendered pages.
func TestValidCodeNotMarked(t *testing.T) {
	for _, name := range []string{"templates.ts", "view.tsx"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "testdata", "site", "highlight", name))
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			lexer, _ := language(name)
			lines, err := highlight(lexer, src)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range lines {
				for _, tok := range line {
					if tok.Class == "err" {
						t.Errorf("line %d: %q drawn as an error", i+1, tok.Text)
					}
				}
			}
			doc := hostileDoc()
			rec := doc.Findings[0]
			path := "packages/x/" + name
			rec.Location.Path, rec.Location.MovedFrom, rec.Location.Excerpt = path, "", src
			rec.Location.Lines.End = rec.Location.Lines.Start + strings.Count(src, "\n") - 1
			files, err := RenderWith(doc, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for file, page := range files {
				if n := strings.Count(string(page), `class="err"`); n > 0 {
					t.Errorf("%s: %d error marks", file, n)
				}
			}
		})
	}
}

// TestHighlightEscapes checks that each escape in a template literal is
// one escape token, between the literal's text and substitutions.
func TestHighlightEscapes(t *testing.T) {
	lines, err := highlight("typescript", "`a\\n${b}\\`c\\${d}\\\\`\n")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tok := range lines[0] {
		if text := strings.TrimSuffix(tok.Text, "\n"); text != "" {
			got = append(got, tok.Class+":"+text)
		}
	}
	want := []string{"sb:`a", `se:\n`, "si:${", "nx:b", "si:}", "se:\\`", "sb:c", `se:\$`, "sb:{d}", `se:\\`, "sb:`"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("tokens\n got %q\nwant %q", got, want)
	}
}

// TestHighlightMemo checks that the memo of highlighted texts answers by
// lexer and text, never with another text's or another lexer's lines,
// and that it stays within its bound.
func TestHighlightMemo(t *testing.T) {
	fresh := func(lexer, text string) [][]token {
		t.Helper()
		lines, err := lexLines(lexer, text)
		if err != nil {
			t.Fatal(err)
		}
		return lines
	}
	check := func(lexer, text string) {
		t.Helper()
		for range 2 { // the second call is answered by the memo
			got, err := highlight(lexer, text)
			if err != nil {
				t.Fatal(err)
			}
			if want := fresh(lexer, text); !reflect.DeepEqual(got, want) {
				t.Errorf("%s %q: highlighted as %v, want %v", lexer, text, got, want)
			}
		}
	}
	a, b := "const a = `x${y}`\n", "const b = 2 / 3\n"
	check("typescript", a)
	check("typescript", b)
	check("plaintext", a) // the same text, another lexer
	check("typescript", a)

	m := newMemo[string, int](highlightMemoBytes)
	text := strings.Repeat("x", highlightMemoBytes/4)
	for i := range 12 {
		m.put(text+strconv.Itoa(i), i, len(text))
	}
	held := 0
	for _, gen := range []map[string]memoValue[int]{m.cur, m.old} {
		for _, e := range gen {
			held += e.cost
		}
	}
	if held > 2*highlightMemoBytes {
		t.Errorf("the memo holds %d bytes of text, over twice its bound %d", held, highlightMemoBytes)
	}
	if v, ok := m.get(text + "11"); !ok || v != 11 {
		t.Errorf("the text put last is remembered as %v, %v; want 11, true", v, ok)
	}
	if _, ok := m.get(text + "0"); ok {
		t.Error("the text put first is still remembered after eleven more, 11 MiB")
	}
}

// TestMemosSamePages renders the same document with the memos of
// highlighted texts and of trusted Markdown off, then on (twice: the
// second time every excerpt and claim comes from them): the files must be
// byte-identical.
func TestMemosSamePages(t *testing.T) {
	doc := readFixture(t, "findings.json")
	render := func(off bool) Files {
		t.Helper()
		highlighted.setOff(off)
		trusted.setOff(off)
		files, err := RenderWith(doc, testLicense, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	want := render(true)
	for i := range 2 {
		got := render(false)
		for name, data := range want {
			if !bytes.Equal(got[name], data) {
				t.Errorf("render %d with the memo: %s differs from the one without", i+1, name)
			}
		}
	}
}

// Diffs are highlighted without chroma (lexDiff, or chroma itself for
// text that is not UTF-8) exactly as chroma's diff lexer highlights them: each
// of chroma's rules and the lines just outside them, with and without a
// final newline, CR bytes, Unicode digits and invalid UTF-8, alone and in
// random sequences.
func TestLexDiffAsChroma(t *testing.T) {
	lines := []string{
		"", " ", " context", "  x", "+", "+added", "++", "-", "-gone", "--", "---", "--- a/x", "----",
		"!", "!strong", "@", "@@ -1,2 +1,3 @@", "< old", "<old", "<", "> new", ">new", ">",
		"Index: x", "index 1..2", "diff --git a b", "Diff", "INDEX", "=", "====", "plain", "\t+tab",
		"1a2", "1,2c3,4", "10d9", "1a", "a2", "1,a2", "1,2,3a4", "1x2", "1a2 ", " 1a2", "1c2,", "1,c2",
		"١a٢", "1\r", "+x\r", "\r", "x\ry", "\xff+", "+\xff", "é", "1a2\n",
	}
	same := func(text string) {
		t.Helper()
		want, err := lexChroma("diff", text)
		if err != nil {
			t.Fatal(err)
		}
		got, err := lexLines("diff", text)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("lexDiff(%q) = %q; chroma gives %q", text, got, want)
		}
	}
	same("")
	for _, l := range lines {
		same(l)
		same(l + "\n")
		same(l + "\n" + l)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(lines[rng.IntN(len(lines))])
			b.WriteString("\n")
		}
		if rng.IntN(2) == 0 {
			b.WriteString(lines[rng.IntN(len(lines))])
		}
		same(b.String())
	}
}

// BenchmarkDiffLexers highlights a 300-line unified diff by chroma's diff
// lexer and by lexDiff, side by side.
func BenchmarkDiffLexers(b *testing.B) {
	var d strings.Builder
	d.WriteString("@@ -1,200 +1,200 @@\n")
	for i := range 300 {
		d.WriteString([]string{" ", "-", "+"}[i%3])
		d.WriteString("  const value" + strconv.Itoa(i) + " = await Effect.gen(function* () { return yield* service })\n")
	}
	text := d.String()
	b.Run("chroma", func(b *testing.B) {
		for b.Loop() {
			if _, err := lexChroma("diff", text); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lexDiff", func(b *testing.B) {
		for b.Loop() {
			lexDiff(text)
		}
	})
}
