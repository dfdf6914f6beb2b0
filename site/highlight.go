package site

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// token is one highlighted run of text; Class is a chroma CSS class ("" for
// plain text).
type token struct {
	Class string
	Text  string
}

// language names the chroma lexer and the Markdown fence language for a
// cited file: TypeScript for the code, plain text for everything else (the
// prompt files are .txt).
func language(file string) (lexer, info string) {
	switch strings.ToLower(path.Ext(file)) {
	case ".ts", ".mts", ".cts":
		return "typescript", "ts"
	case ".tsx":
		return "tsx", "tsx"
	case ".js", ".mjs", ".cjs", ".jsx":
		return "javascript", "js"
	case ".json":
		return "json", "json"
	}
	return "plaintext", "text"
}

// highlight splits text into lines of tokens with the named chroma lexer
// (plain text when chroma has no such lexer). Each line keeps its
// terminating newline in its last token, as chroma's own HTML does. The text
// is only ever data: the tokens are escaped when the excerpt template writes
// them.
func highlight(lexerName, text string) ([][]token, error) {
	lexer := lexers.Get(lexerName)
	if lexer == nil {
		lexer = lexers.Get("plaintext")
	}
	lexer = chroma.Coalesce(lexer)
	it, err := lexer.Tokenise(&chroma.TokeniseOptions{State: "root"}, text)
	if err != nil {
		return nil, fmt.Errorf("highlight: %w", err)
	}
	var out [][]token
	for _, line := range chroma.SplitTokensIntoLines(it.Tokens()) {
		var toks []token
		for _, t := range line {
			if t.Value == "" {
				continue
			}
			c := tokenClass(t.Type)
			if n := len(toks); n > 0 && toks[n-1].Class == c {
				toks[n-1].Text += t.Value
				continue
			}
			toks = append(toks, token{Class: c, Text: t.Value})
		}
		out = append(out, toks)
	}
	return out, nil
}

// tokenClass is the CSS class chroma's HTML formatter uses for a token type:
// the type's own short name, else its nearest ancestor's.
func tokenClass(t chroma.TokenType) string {
	for t != 0 {
		if cls, ok := chroma.StandardTypes[t]; ok {
			return cls
		}
		t = t.Parent()
	}
	return chroma.StandardTypes[t]
}

// Highlight styles for screen (light and dark) and print.
const (
	lightStyle = "github"
	darkStyle  = "github-dark"
)

// highlightCSS returns the stylesheet for the token classes: the light
// style for print and light screens, the dark style for screens that
// prefer a dark scheme. The two never cascade into each other: the light
// style gives dark text to classes the dark style leaves to the default
// colour, which would be unreadable on a dark background.
func highlightCSS() ([]byte, error) {
	f := chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithCSSComments(false))
	var b bytes.Buffer
	b.WriteString("/* Syntax highlighting: chroma styles " + lightStyle + " and " + darkStyle + ". */\n")
	for _, s := range []struct{ media, style string }{
		{"not screen and (prefers-color-scheme: dark)", lightStyle},
		{"screen and (prefers-color-scheme: dark)", darkStyle},
	} {
		var css bytes.Buffer
		if err := f.WriteCSS(&css, styles.Get(s.style)); err != nil {
			return nil, fmt.Errorf("highlight stylesheet: %w", err)
		}
		b.WriteString("@media " + s.media + " {\n")
		for _, line := range strings.SplitAfter(css.String(), "\n") {
			if line != "" {
				b.WriteString("  " + line)
			}
		}
		b.WriteString("}\n")
	}
	return b.Bytes(), nil
}
