package extract

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// parsedFile is a file's bytes with its syntax tree and line index.
type parsedFile struct {
	*File
	lang *sitter.Language
	tree *sitter.Tree
	root *sitter.Node
	// lineStarts[i] is the byte offset where line i+1 begins.
	lineStarts []int

	importsOnce sync.Once
	imports     map[string]string

	// unsearchable, when set, says why queries are not run on this file.
	unsearchable string
}

// maxChildren bounds the children of one node with syntax errors that
// keyfindings will search. On such nodes tree-sitter's query cursor takes
// time quadratic in the child count (seen: 15 s for 100,000 unclosed
// brackets), so a hostile file would stall a build.
const maxChildren = 20_000

// widestNode returns the largest child count of any node that holds a
// syntax error, and its line, walking with a tree cursor (linear in the
// tree). Error-free nodes are searched fast however wide they are.
func widestNode(root *sitter.Node) (int, int) {
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	most, line := 0, 0
	for {
		n := c.CurrentNode()
		if k := int(n.ChildCount()); k > most && n.HasError() {
			most, line = k, int(n.StartPoint().Row)+1
		}
		if c.GoToFirstChild() {
			continue
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return most, line
			}
		}
	}
}

// parseFile parses f with the grammar its extension names.
func parseFile(f *File) (*parsedFile, error) {
	lang := languageFor(f.Path)
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(lang)
	tree, err := p.ParseCtx(context.Background(), nil, f.Data)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", f.Path, err)
	}
	pf := &parsedFile{File: f, lang: lang, tree: tree, root: tree.RootNode()}
	pf.lineStarts = lineStarts(f.Data)
	// A node needs at least a byte per child, so small files cannot hold
	// one too wide to search.
	if len(f.Data) > maxChildren && pf.root.HasError() {
		if most, line := widestNode(pf.root); most > maxChildren {
			pf.unsearchable = fmt.Sprintf("%s: the syntax node at line %d has syntax errors and %d children, over the %d keyfindings searches; the file was not searched", f.Path, line, most, maxChildren)
		}
	}
	return pf, nil
}

// lineStarts indexes the first byte of every line.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineCount is the number of lines as sed and GitHub count them.
func (f *parsedFile) lineCount() int {
	if len(f.Data) == 0 {
		return 0
	}
	return len(f.lineStarts)
}

// point converts a byte offset to a tree-sitter point.
func (f *parsedFile) point(off int) sitter.Point {
	line := sort.Search(len(f.lineStarts), func(i int) bool { return f.lineStarts[i] > off }) - 1
	if line < 0 {
		line = 0
	}
	return sitter.Point{Row: uint32(line), Column: uint32(off - f.lineStarts[line])}
}

// nodeLines returns the 1-based first and last line of a node. A node that
// ends at column 0 (just after a newline) ends on the line before.
func nodeLines(n *sitter.Node) (int, int) {
	start := int(n.StartPoint().Row) + 1
	ep := n.EndPoint()
	end := int(ep.Row) + 1
	if ep.Column == 0 && n.EndByte() > n.StartByte() {
		end--
	}
	if end < start {
		end = start
	}
	return start, end
}

// SpanBytes returns the bytes of lines start..end (1-based, inclusive) of
// data: from the first byte of line start through the end of line end,
// including its newline. This is the hash rule.
func SpanBytes(data []byte, start, end int) ([]byte, error) {
	starts := lineStarts(data)
	n := len(starts)
	if len(data) == 0 {
		n = 0
	}
	if start < 1 || end < start || end > n {
		return nil, fmt.Errorf("lines %d-%d outside a %d-line file", start, end, n)
	}
	from := starts[start-1]
	to := len(data)
	if end < n {
		to = starts[end]
	}
	return data[from:to], nil
}

// spanRange returns the byte range of lines start..end.
func (f *parsedFile) spanRange(start, end int) byteRange {
	from := f.lineStarts[start-1]
	to := len(f.Data)
	if end < len(f.lineStarts) {
		to = f.lineStarts[end]
	}
	return byteRange{from, to}
}

// importMap maps locally bound names to the module specifier they are
// imported from, resolved against the file's directory when relative.
func (f *parsedFile) importMap() map[string]string {
	f.importsOnce.Do(func() {
		f.imports = map[string]string{}
		for i := 0; i < int(f.root.NamedChildCount()); i++ {
			st := f.root.NamedChild(i)
			if st.Type() != "import_statement" {
				continue
			}
			src := st.ChildByFieldName("source")
			if src == nil {
				continue
			}
			spec := unquote(src.Content(f.Data))
			if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
				spec = path.Join(path.Dir(f.Path), spec)
			}
			collectBindings(st, f.Data, func(name string) { f.imports[name] = spec })
		}
	})
	return f.imports
}

// collectBindings reports the local names an import statement binds.
func collectBindings(n *sitter.Node, src []byte, fn func(string)) {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "import_clause", "named_imports", "namespace_import":
			collectBindings(c, src, fn)
		case "import_specifier":
			if alias := c.ChildByFieldName("alias"); alias != nil {
				fn(alias.Content(src))
			} else if name := c.ChildByFieldName("name"); name != nil {
				fn(name.Content(src))
			}
		case "identifier":
			fn(c.Content(src))
		}
	}
}

// syntaxErrors lists the lines of ERROR or MISSING nodes inside r.
func (f *parsedFile) syntaxErrors(r byteRange) []int {
	if !f.root.HasError() {
		return nil
	}
	var lines []int
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if int(n.EndByte()) <= r.start || int(n.StartByte()) >= r.end || !n.HasError() && !n.IsMissing() {
			return
		}
		if n.IsError() || n.IsMissing() {
			lines = append(lines, int(n.StartPoint().Row)+1)
			return
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			walk(n.Child(i))
		}
	}
	walk(f.root)
	return lines
}

// parseCache parses each blob at most once per run.
type parseCache struct {
	mu    sync.Mutex
	files map[string]*cachedParse
}

type cachedParse struct {
	once sync.Once
	pf   *parsedFile
	err  error
}

func newParseCache() *parseCache { return &parseCache{files: map[string]*cachedParse{}} }

// get returns the parse of f, reusing an earlier parse of the same blob at
// the same path extension.
func (c *parseCache) get(f *File) (*parsedFile, error) {
	key := f.Blob + "\x00" + path.Ext(f.Path)
	c.mu.Lock()
	e, ok := c.files[key]
	if !ok {
		e = &cachedParse{}
		c.files[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.pf, e.err = parseFile(f) })
	if e.err != nil {
		return nil, e.err
	}
	if e.pf.Path != f.Path {
		// Same bytes at another path: share the tree, not the path.
		return &parsedFile{File: f, lang: e.pf.lang, tree: e.pf.tree, root: e.pf.root, lineStarts: e.pf.lineStarts, unsearchable: e.pf.unsearchable}, nil
	}
	return e.pf, nil
}

// containsAll reports whether data holds every anchor.
func containsAll(data []byte, anchors []string) bool {
	for _, a := range anchors {
		if !bytes.Contains(data, []byte(a)) {
			return false
		}
	}
	return true
}
