package site

import (
	"os"
	"path/filepath"
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
