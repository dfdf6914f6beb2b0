package locate

import (
	"container/list"
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/keyfindings/keyfindings/source"

	sitter "github.com/smacker/go-tree-sitter"
)

// parsedFile is a file's bytes with its line index and, unless it is a
// text file (textFile), its syntax tree.
type parsedFile struct {
	*source.File
	lang *sitter.Language
	tree *sitter.Tree
	root *sitter.Node
	// lineStarts[i] is the byte offset where line i+1 begins.
	lineStarts []int

	importsOnce sync.Once
	imports     map[string]string

	// unsearchable, when set, says why queries are not run on this file.
	unsearchable string

	// runs keeps the matches of the query groups run on this view of the
	// file (groupMatches).
	runsMu sync.Mutex
	runs   map[runKey][]groupMatch
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
func parseFile(f *source.File) (*parsedFile, error) {
	counted.parses.Add(1)
	lang := languageFor(f.Path)
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(lang)
	tree, err := p.ParseCtx(context.Background(), nil, f.Data)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", f.Path, err)
	}
	pf := &parsedFile{File: f, lang: lang, tree: tree, root: tree.RootNode()}
	pf.lineStarts = source.LineStarts(f.Data)
	// A node needs at least a byte per child, so small files cannot hold
	// one too wide to search.
	if len(f.Data) > maxChildren && pf.root.HasError() {
		if most, line := widestNode(pf.root); most > maxChildren {
			pf.unsearchable = fmt.Sprintf("%s: the syntax node at line %d has syntax errors and %d children, over the %d keyfindings searches; the file was not searched", f.Path, line, most, maxChildren)
		}
	}
	return pf, nil
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

// spanOf is the hash rule on an existing line index (source.SpanRange).
func spanOf(data []byte, starts []int, start, end int) (byteRange, error) {
	from, to, err := source.SpanRange(data, starts, start, end)
	return byteRange{from, to}, err
}

// spanRange returns the byte range of lines start..end.
func (f *parsedFile) spanRange(start, end int) (byteRange, error) {
	return spanOf(f.Data, f.lineStarts, start, end)
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
	if f.root == nil || !f.root.HasError() {
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

// parseCache shares syntax trees by blob among the Extract calls that use
// them, so a blob is parsed once however many definitions of the calls in
// flight read it. A tree lives while some call holds it, and after that
// among the most recently released ones, up to keptSourceBytes of source:
// a call that locates a definition again because one of its files changed
// (a log, commit after commit; a run of releases) reads the others again.
// Memory stays bounded by the calls in flight and that budget, not by the
// number of commits read.
type parseCache struct {
	mu    sync.Mutex
	files map[string]*cachedParse
	// recent lists the entries no call holds, most recently released
	// last; recentBytes is the size of their sources.
	recent      list.List
	recentBytes int
	// keep bounds recentBytes.
	keep int
	// parses counts the trees built, for tests and benchmarks.
	parses atomic.Int64
}

// keptSourceBytes bounds the source of the syntax trees kept after their
// last call released them. A tree takes about 30 times its source in
// memory, so 256 KiB of source keeps some 8 MiB of trees. Over opencode's
// whole history a log of the catalog parsed 15,466 files without them,
// 9,391 of them blobs it had parsed before (most often the other tool
// files of a definition that reads them all), and 9,006 with them.
const keptSourceBytes = 256 << 10

// cachedParse is one blob's parse. Its tree is never queried itself:
// go-tree-sitter's Tree caches Go node values in a map without a lock, so
// each goroutine queries its own copy (see view), which shares the
// immutable C tree.
type cachedParse struct {
	key   string
	once  sync.Once
	base  *parsedFile
	err   error
	users int // calls holding the entry, under parseCache.mu
	// recent is the entry's element in parseCache.recent while no call
	// holds it.
	recent *list.Element
}

func newParseCache() *parseCache {
	return &parseCache{files: map[string]*cachedParse{}, keep: keptSourceBytes}
}

func parseKey(f *source.File) string { return f.Blob + "\x00" + path.Ext(f.Path) }

// acquire returns the entry for f's bytes (the same blob at the same path
// extension) and counts one more user; each acquire is paired with a
// release of the entry.
func (c *parseCache) acquire(f *source.File) *cachedParse {
	key := parseKey(f)
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.files[key]
	if !ok {
		e = &cachedParse{key: key}
		c.files[key] = e
	}
	if e.recent != nil {
		c.recent.Remove(e.recent)
		e.recent = nil
		c.recentBytes -= e.size()
	}
	e.users++
	return e
}

// release drops one user of e. A tree no call holds any more joins the
// recent ones, and the oldest of those are freed past the budget.
func (c *parseCache) release(e *cachedParse) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.users--; e.users > 0 {
		return
	}
	if e.base == nil || e.size() > c.keep {
		c.drop(e)
		return
	}
	e.recent = c.recent.PushBack(e)
	c.recentBytes += e.size()
	for c.recentBytes > c.keep {
		old := c.recent.Remove(c.recent.Front()).(*cachedParse)
		old.recent = nil
		c.recentBytes -= old.size()
		c.drop(old)
	}
}

// drop forgets e and frees its tree; c.mu is held.
func (c *parseCache) drop(e *cachedParse) {
	delete(c.files, e.key)
	if e.base != nil {
		e.base.close()
	}
}

// size is the size of the entry's source, 0 before it is parsed.
func (e *cachedParse) size() int {
	if e.base == nil {
		return 0
	}
	return len(e.base.Data)
}

// parse parses f on the entry's first call.
func (c *parseCache) parse(e *cachedParse, f *source.File) error {
	e.once.Do(func() {
		e.base, e.err = parseFile(f)
		c.parses.Add(1)
	})
	return e.err
}

// view returns f with the entry's tree, for use by one goroutine: a copy
// of the tree (cheap: tree-sitter shares the nodes and counts references)
// with its own node cache. The caller closes it.
func (e *cachedParse) view(f *source.File) *parsedFile {
	t := e.base.tree.Copy()
	pf := &parsedFile{File: f, lang: e.base.lang, tree: t, root: t.RootNode(), lineStarts: e.base.lineStarts}
	if u := e.base.unsearchable; u != "" {
		// The reason names the file: this one, whichever path was
		// parsed first.
		pf.unsearchable = f.Path + strings.TrimPrefix(u, e.base.Path)
	}
	return pf
}

// close frees the file's tree; the file is not used after.
func (f *parsedFile) close() {
	if f.tree != nil {
		f.tree.Close()
	}
}

// textFile is f with its line index and no syntax tree: a file cited whole
// (a definition's file:), which is not TypeScript and is not queried.
func textFile(f *source.File) *parsedFile {
	return &parsedFile{File: f, lineStarts: source.LineStarts(f.Data)}
}
