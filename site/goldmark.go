package site

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	gmrenderer "github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/internal/par"
)

// markdown is the one goldmark configuration of the site: GFM tables and
// strikethrough, heading attributes (for the finding anchors), callouts,
// and fenced code blocks highlighted by chroma. Raw HTML is not enabled:
// goldmark replaces any with a comment, so nothing in the Markdown becomes
// markup except what goldmark itself writes.
type markdown struct {
	md goldmark.Markdown
}

// excerptInfo is the word in a fenced block's info string that names the
// record whose excerpt the block shows.
const excerptInfo = "kf-excerpt="

// excerptHeadInfo is the word in an excerpt block's info string that asks
// for the excerpt's head alone: a long excerpt shows its first headLines
// and links to its record for the rest instead of folding it (the index,
// which stays short, uses it).
const excerptHeadInfo = "kf-head"

// figureInfo is the word in a fenced block's info string that names a
// figure (HTML rendered beforehand by an HTML template) to show instead
// of the block.
const figureInfo = "kf-figure="

// An excerpt longer than foldLines shows its first headLines and folds the
// rest in <details>. On the index, an excerpt longer than indexLines
// shows its first headLines and links to the rest on its record's page,
// so the index stays small enough to scan (and to load on a phone).
const (
	foldLines  = 60
	indexLines = 24
	headLines  = 12
)

// newMarkdown returns the goldmark configuration for pages whose excerpts
// come from records and whose figures (by name) are already HTML.
func newMarkdown(records map[string]*findings.Record, html *htmltemplate.Template, figures map[string]htmltemplate.HTML) *markdown {
	return newMarkdownLexed(records, nil, html, figures)
}

// newMarkdownLexed is newMarkdown with the records' excerpts highlighted
// already (lexExcerpts).
func newMarkdownLexed(records map[string]*findings.Record, lexed map[string][][]token, html *htmltemplate.Template, figures map[string]htmltemplate.HTML) *markdown {
	return &markdown{md: goldmark.New(
		goldmark.WithExtensions(extension.Table, extension.Strikethrough),
		goldmark.WithParserOptions(
			parser.WithAttribute(),
			parser.WithASTTransformers(util.Prioritized(calloutTransformer{}, 500)),
		),
		goldmark.WithRendererOptions(
			gmrenderer.WithNodeRenderers(util.Prioritized(&codeRenderer{records: records, html: html, figures: figures, lexed: lexed}, 100)),
		),
	)}
}

// convert renders Markdown to HTML.
func (m *markdown) convert(src []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := m.md.Convert(src, &b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// codeRenderer renders fenced code blocks with chroma through the
// excerpt.html.tmpl template. A block whose info string carries
// kf-excerpt=<id> shows that record's excerpt, taken from the record (not
// from the Markdown), numbered with the real source lines, each number a
// link to that line's permalink. Other blocks are highlighted by their
// language, unnumbered. A block whose info string is kf-figure=<name> is
// replaced by that figure, HTML that an HTML template wrote (the picture
// of findings × releases); the template escaped whatever data it holds, so
// goldmark still writes no markup of the Markdown's own.
type codeRenderer struct {
	records map[string]*findings.Record
	html    *htmltemplate.Template
	figures map[string]htmltemplate.HTML
	// lexed holds each located record's excerpt highlighted, by id
	// (lexExcerpts); an excerpt missing from it is highlighted when shown.
	lexed map[string][][]token
}

// RegisterFuncs implements gmrenderer.NodeRenderer.
func (r *codeRenderer) RegisterFuncs(reg gmrenderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.render)
}

// excerptView is the data of the excerpt template.
type excerptView struct {
	// ID is the record's id; "" for a block that is not an excerpt.
	ID    string
	Path  string
	Start int
	End   int
	Count int
	// All is the whole block.
	All blockView
	// Fold is set for excerpts longer than foldLines; Head are the lines
	// shown and Rest the lines folded.
	Fold bool
	Head blockView
	Rest blockView
	// More is set, instead of Fold, for the head of a long excerpt whose
	// rest is on its record's page.
	More *moreView
}

// moreView links from an excerpt's head to the whole excerpt.
type moreView struct {
	// Href is the record's anchor on its page.
	Href string
	// Page is that page's title.
	Page string
	// Count, Start and End describe the lines not shown.
	Count, Start, End int
}

// blockView is a run of lines drawn as one <pre>.
type blockView struct {
	// Wrap is set for prose (plain text such as prompt files) and for
	// commands, whose long lines wrap instead of scrolling.
	Wrap  bool
	Lines []lineView
}

// lineView is one line of an excerpt.
type lineView struct {
	// N is the source line number; 0 for an unnumbered block.
	N int
	// Href is the line's permalink; "" when there is none.
	Href   string
	Tokens []token
}

func (r *codeRenderer) render(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	cb := n.(*ast.FencedCodeBlock)
	var info []string
	if cb.Info != nil {
		info = strings.Fields(string(cb.Info.Segment.Value(src)))
	}
	if len(info) == 1 {
		if name, ok := strings.CutPrefix(info[0], figureInfo); ok {
			fig, ok := r.figures[name]
			if !ok {
				return ast.WalkStop, fmt.Errorf("no figure %q on this page", name)
			}
			if _, err := w.WriteString(string(fig)); err != nil {
				return ast.WalkStop, err
			}
			return ast.WalkSkipChildren, nil
		}
	}
	var v excerptView
	var rec *findings.Record
	head := false
	for _, word := range info {
		if id, ok := strings.CutPrefix(word, excerptInfo); ok {
			rec = r.records[id]
		}
		head = head || word == excerptHeadInfo
	}
	var err error
	if rec != nil && rec.Location != nil {
		v, err = recordExcerpt(rec, head, r.lexed[rec.ID])
	} else {
		lang := "plaintext"
		if len(info) > 0 && !strings.HasPrefix(info[0], excerptInfo) {
			lang = info[0]
		}
		var body bytes.Buffer
		for i := 0; i < cb.Lines().Len(); i++ {
			seg := cb.Lines().At(i)
			body.Write(seg.Value(src))
		}
		v, err = plainExcerpt(lang, body.String())
	}
	if err != nil {
		return ast.WalkStop, err
	}
	if err := r.html.ExecuteTemplate(w, "excerpt", v); err != nil {
		return ast.WalkStop, err
	}
	return ast.WalkSkipChildren, nil
}

// recordExcerpt shows a record's excerpt highlighted (lines, when not nil,
// are its lines highlighted already), with its line numbers. A long
// excerpt is folded after its head, or, when head is set, cut after it
// with a link to the record's page.
func recordExcerpt(rec *findings.Record, head bool, lines [][]token) (excerptView, error) {
	lexer, _ := language(rec.Location.Path)
	if lines == nil {
		var err error
		if lines, err = lexExcerpt(rec); err != nil {
			return excerptView{}, err
		}
	}
	base := ""
	if rec.Location.Permalink != "" {
		base, _, _ = strings.Cut(rec.Location.Permalink, "#")
	}
	v := excerptView{ID: rec.ID, Path: rec.Location.Path, Start: rec.Location.Lines.Start, End: rec.Location.Lines.End, Count: len(lines)}
	v.All.Wrap = lexer == "plaintext"
	for i, toks := range lines {
		lv := lineView{N: rec.Location.Lines.Start + i, Tokens: toks}
		if base != "" {
			lv.Href = base + "#L" + strconv.Itoa(lv.N)
		}
		v.All.Lines = append(v.All.Lines, lv)
	}
	if v.Count > foldLines || head && v.Count > indexLines {
		v.Fold = true
		v.Head = blockView{Wrap: v.All.Wrap, Lines: v.All.Lines[:headLines]}
		v.Rest = blockView{Wrap: v.All.Wrap, Lines: v.All.Lines[headLines:]}
		if head {
			v.Fold = false
			v.More = &moreView{
				Href:  rec.Page + ".html#" + rec.ID,
				Page:  pageTitle(rec.Page),
				Count: len(v.Rest.Lines),
				Start: v.Rest.Lines[0].N,
				End:   rec.Location.Lines.End,
			}
		}
	}
	return v, nil
}

// lexExcerpt highlights a located record's excerpt.
func lexExcerpt(rec *findings.Record) ([][]token, error) {
	lexer, _ := language(rec.Location.Path)
	return highlight(lexer, displayText(rec.Location.Excerpt))
}

// lexExcerpts highlights the excerpt of every located record of records
// that the pages show (not those sameAs names: the pages link to an
// earlier release's instead), on up to GOMAXPROCS goroutines, by record
// id. Highlighting is most of
// what rendering a site's pages costs, and an excerpt comes out the same
// on every page that shows it; what the pages show does not depend on
// the order the excerpts were highlighted in.
func lexExcerpts(records map[string]*findings.Record, sameAs map[string]string) (map[string][][]token, error) {
	var ids []string
	for id, rec := range records {
		if rec.Location != nil && sameAs[id] == "" {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	lines := make([][][]token, len(ids))
	errs := make([]error, len(ids))
	par.ForEach(len(ids), par.Workers(), func(i int) {
		lines[i], errs[i] = lexExcerpt(records[ids[i]])
	})
	out := make(map[string][][]token, len(ids))
	for i, id := range ids {
		if errs[i] != nil {
			return nil, fmt.Errorf("record %s: %w", id, errs[i])
		}
		out[id] = lines[i]
	}
	return out, nil
}

// plainExcerpt highlights the body of an ordinary fenced block.
func plainExcerpt(lang, body string) (excerptView, error) {
	lines, err := highlight(lang, displayText(body))
	if err != nil {
		return excerptView{}, err
	}
	// Commands wrap; diffs keep one line per line, with their +/- markers
	// in the first column, and scroll like code.
	v := excerptView{Count: len(lines), All: blockView{Wrap: lang != "diff"}}
	for _, toks := range lines {
		v.All.Lines = append(v.All.Lines, lineView{Tokens: toks})
	}
	return v, nil
}

// calloutPattern matches the first line of a GitHub alert blockquote.
var calloutPattern = regexp.MustCompile(`(?i)^\[!(note|tip|important|warning|caution)\]$`)

// calloutTransformer turns GitHub alerts (a blockquote whose first line is
// [!NOTE], [!WARNING], …) into blockquotes with the class "callout <kind>"
// and drops the marker line, so findings.md shows GitHub's alerts and the
// pages show styled boxes. The marker is matched on the raw source line, so
// an escaped \[!NOTE\] (as data always is) stays text.
type calloutTransformer struct{}

// Transform implements parser.ASTTransformer.
func (calloutTransformer) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Kind() != ast.KindBlockquote {
			return ast.WalkContinue, nil
		}
		p, ok := n.FirstChild().(*ast.Paragraph)
		if !ok || p.Lines().Len() == 0 {
			return ast.WalkContinue, nil
		}
		first := p.Lines().At(0)
		m := calloutPattern.FindSubmatch(bytes.TrimSpace(first.Value(src)))
		if m == nil {
			return ast.WalkContinue, nil
		}
		n.SetAttributeString("class", []byte("callout "+strings.ToLower(string(m[1]))))
		for c := p.FirstChild(); c != nil; {
			next := c.NextSibling()
			if t, ok := c.(*ast.Text); ok && t.Segment.Start < first.Stop {
				p.RemoveChild(p, c)
			} else {
				break
			}
			c = next
		}
		if p.FirstChild() == nil {
			n.RemoveChild(n, p)
		}
		return ast.WalkContinue, nil
	})
}
