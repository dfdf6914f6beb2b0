// Package templates holds the default templates and stylesheet of the
// findings site, embedded in the binary.
//
// Files ending in .md.tmpl are text/template templates that produce
// Markdown; files ending in .html.tmpl are html/template templates (the page
// shell and the highlighted excerpt); style.css is copied into the site and
// sections.txt lists the index sections in order. A directory given to
// `keyfindings build --templates DIR` overrides these files one by one: a
// file there with the same name replaces the embedded one, and further
// *.md.tmpl or *.html.tmpl files there are parsed too.
package templates

import "embed"

// FS holds the embedded default templates.
//
//go:embed *.tmpl style.css sections.txt
var FS embed.FS
