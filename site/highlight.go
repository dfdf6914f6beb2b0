package site

import (
	"bytes"
	"fmt"
	"path"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

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
// them. The lines depend on the lexer and the text alone, and are
// remembered by them (highlighted): callers share them and must not
// change them.
func highlight(lexerName, text string) ([][]token, error) {
	k := highlightKey{lexerName, text}
	if lines, ok := highlighted.get(k); ok {
		return lines, nil
	}
	lines, err := lexLines(lexerName, text)
	if err == nil {
		highlighted.put(k, lines, len(text)+linesSize(lines))
	}
	return lines, err
}

// lexLines is highlight without the memo.
func lexLines(lexerName, text string) ([][]token, error) {
	if lexerName == "diff" && utf8.ValidString(text) {
		return lexDiff(text), nil
	}
	return lexChroma(lexerName, text)
}

// lexChroma is lexLines by a chroma lexer.
func lexChroma(lexerName, text string) ([][]token, error) {
	lexer, err := lexerFor(lexerName)
	if err != nil {
		return nil, err
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

// lexDiff is what chroma's diff lexer makes of text, without its
// regular expressions (running them was 6.6% of the CPU time of
// rendering a thousand releases, whose change pages show diffs): each
// line is one token whose type the line's first characters decide, by
// chroma's rules in chroma's order (TestLexDiffAsChroma), and like chroma
// it ends the text with a newline when it has none (and gives no line for
// no text). The text must be valid UTF-8 (chroma reads each invalid byte
// as U+FFFD).
func lexDiff(text string) [][]token {
	if text == "" {
		return nil
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	var out [][]token
	for len(text) > 0 {
		i := strings.IndexByte(text, '\n')
		line := text[:i+1]
		text = text[i+1:]
		out = append(out, []token{{Class: tokenClass(diffLineType(line[:i])), Text: line}})
	}
	return out
}

// diffLineType is the token type chroma's diff lexer gives a line (line
// without its newline).
func diffLineType(line string) chroma.TokenType {
	first := byte(0)
	if line != "" {
		first = line[0]
	}
	switch {
	case first == ' ':
		return chroma.Text
	case normalDiffRange(line):
		return chroma.GenericSubheading
	case line == "---":
		return chroma.GenericStrong
	case strings.HasPrefix(line, "< "):
		return chroma.GenericDeleted
	case strings.HasPrefix(line, "> "):
		return chroma.GenericInserted
	case first == '+':
		return chroma.GenericInserted
	case first == '-':
		return chroma.GenericDeleted
	case first == '!':
		return chroma.GenericStrong
	case first == '@':
		return chroma.GenericSubheading
	case strings.HasPrefix(line, "Index"), strings.HasPrefix(line, "index"), strings.HasPrefix(line, "diff"):
		return chroma.GenericHeading
	case first == '=':
		return chroma.GenericHeading
	}
	return chroma.Text
}

// normalDiffRange reports whether line is a whole range line of a normal
// diff, digits(,digits)? then a, c or d then digits(,digits)?, digits
// being Unicode decimal digits as in chroma's regular expressions.
func normalDiffRange(line string) bool {
	rest, ok := diffNumbers(line)
	if !ok || rest == "" || !strings.ContainsRune("acd", rune(rest[0])) {
		return false
	}
	rest, ok = diffNumbers(rest[1:])
	return ok && rest == ""
}

// diffNumbers consumes digits(,digits)? from the start of s.
func diffNumbers(s string) (rest string, ok bool) {
	digits := func(s string) (string, bool) {
		t := strings.TrimLeftFunc(s, unicode.IsDigit)
		return t, len(t) < len(s)
	}
	if s, ok = digits(s); !ok {
		return "", false
	}
	if t, ok := strings.CutPrefix(s, ","); ok {
		if t, ok := digits(t); ok {
			return t, true
		}
	}
	return s, true
}

// lexerFor returns the chroma lexer for a language name: the derived
// TypeScript lexers for "typescript" and "tsx", chroma's own for anything
// else, plain text when chroma has no such lexer.
func lexerFor(name string) (chroma.Lexer, error) {
	switch name {
	case "typescript":
		return typescriptLexer()
	case "tsx":
		return tsxLexer()
	}
	if l := lexers.Get(name); l != nil {
		return l, nil
	}
	return lexers.Get("plaintext"), nil
}

var (
	typescriptLexer = sync.OnceValues(func() (chroma.Lexer, error) { return deriveTypeScript(false) })
	tsxLexer        = sync.OnceValues(func() (chroma.Lexer, error) { return deriveTypeScript(true) })
)

// deriveTypeScript returns chroma's TypeScript lexer with the rules that
// make it draw valid code as errors mended:
//
//   - Inside a template literal chroma knows only the escapes \\ and \`;
//     any other (\n, \${, \u…) matched no rule and became an error token.
//     Every backslash escape is now one escape token.
//   - chroma lexes JSX in .ts files too, so a type argument such as
//     Record<string, string | undefined> opened a JSX tag, inside which an
//     operator matched no rule. A .ts file cannot hold JSX (there <T>x is a
//     type assertion), so the TypeScript lexer has no JSX rules; the TSX
//     lexer keeps them, reads any other punctuation inside a tag as
//     punctuation, since there it may be a type argument too, and any
//     other symbol as text, since between tags it is JSX text (▣, ·, #).
//   - A regular expression literal could carry only the flags g, i and m;
//     with any other (u, s, y, d, v) it did not match, and the rest of its
//     line became error tokens. Now it takes them all. Where a slash that
//     might start one does not, it is read as the division operator it
//     then is, instead of turning the rest of the line into errors.
//
// The rest is chroma's, so the token classes and styles stay the same.
func deriveTypeScript(jsx bool) (chroma.Lexer, error) {
	base, ok := lexers.Get("typescript").(*chroma.RegexLexer)
	if !ok {
		return nil, fmt.Errorf("highlight: chroma has no TypeScript regex lexer")
	}
	raw, err := base.Rules()
	if err != nil {
		return nil, fmt.Errorf("highlight: %w", err)
	}
	rules := raw.Clone()
	rules["interp"] = append([]chroma.Rule{{Pattern: `\\.`, Type: chroma.LiteralStringEscape}}, rules["interp"]...)
	for i, r := range rules["slashstartsregex"] {
		rules["slashstartsregex"][i].Pattern = strings.Replace(r.Pattern, "([gim]+\\b|\\B)", "([dgimsuvy]+\\b|\\B)", 1)
		if r.Pattern == "(?=/)" {
			// The slash is consumed as an operator: a rule that matched
			// nothing here would let root's zero-width rule at a line
			// start push this state again forever.
			rules["slashstartsregex"][i] = chroma.Rule{Pattern: `/`, Type: chroma.Operator, Mutator: chroma.Pop(1)}
		}
	}
	if jsx {
		rules["tag"] = append(rules["tag"], chroma.Rule{Pattern: `[^\s\w]`, Type: chroma.Punctuation})
		rules["root"] = append(rules["root"], chroma.Rule{Pattern: `[^\s\w]`, Type: chroma.Text})
	} else {
		rules["root"] = slices.DeleteFunc(rules["root"], func(r chroma.Rule) bool {
			return reflect.DeepEqual(r, chroma.Include("jsx"))
		})
	}
	cfg := *base.Config()
	return chroma.NewLexer(&cfg, func() chroma.Rules { return rules })
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

// highlightKey is what highlighted lines depend on.
type highlightKey struct{ lexer, text string }

// highlightMemoBytes bounds the memory each generation of the memo of
// highlighted texts holds, as linesSize counts it: a release's excerpts,
// some 600 KB of text, take about 5 MB as tokens.
const highlightMemoBytes = 6 << 20

// linesSize estimates the bytes lines take: each token's two strings and
// text, each line's slice.
func linesSize(lines [][]token) int {
	n := 0
	for _, toks := range lines {
		n += 24 + 32*cap(toks)
		for _, t := range toks {
			n += len(t.Text)
		}
	}
	return n
}

// highlighted remembers highlighted texts by lexer and text. Rendering
// the releases of a releases directory one after the other highlights
// mostly the same excerpts again (a record's bytes rarely change from one
// release to the next), and highlighting was most of what rendering a
// release's pages cost.
var highlighted = newMemo[highlightKey, [][]token](highlightMemoBytes)
