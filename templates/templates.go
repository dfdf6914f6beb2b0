// Package templates holds the default templates and stylesheet of the
// findings site, embedded in the binary.
//
// Files ending in .md.tmpl are text/template templates that produce
// Markdown: index.md.tmpl (index.html), page.md.tmpl (prompts.html,
// tools.html, configuration.html, network.html), findings.md.tmpl
// (findings.md), routes.md.tmpl (routes.html: the routes of the
// representative models, evaluated from the records with package route)
// and partials.md.tmpl (the parts they share). Files ending
// in .html.tmpl are html/template templates: layout.html.tmpl is the page
// shell around goldmark's HTML, excerpt.html.tmpl draws highlighted code.
// style.css is copied into the site, followed by the highlighting rules;
// sections.txt lists the index sections in order.
//
// `keyfindings releases` writes one such site per release tag (its pages
// linked to the releases index and to the releases before and after it)
// and, around them, pages of its own, inside releases-layout.html.tmpl:
// releases.md.tmpl (the top-level index.html: the minor versions, the
// newest one's releases, an overview of the findings),
// releases-minor.md.tmpl (<minor>.html, e.g. v1.17.html: the releases of
// one minor version and their change counts), releases-timeline.md.tmpl
// (timeline/<id>.html: one finding across the releases, runs of releases
// in which its record did not change collapsed into one line) and
// changes.md.tmpl (<tag>/changes.html: what changed since the release
// before); releases-partials.md.tmpl holds the parts they share.
// releases-routes.html.tmpl draws the plot of route totals across the
// releases, placed on the index with {{figure "routes"}} when a route
// could be evaluated at some release.
//
// `keyfindings build --templates DIR` overrides these files one by one: a
// file in DIR with the same name replaces the embedded one, and further
// *.md.tmpl and *.html.tmpl files in DIR that hold only {{define}} blocks
// are parsed too (for new partials). Any other file in DIR (a misspelt
// name, say) is an error; hidden files are passed over.
//
// The Markdown templates receive the document as read from findings.json
// (.Doc), the source prepared for display (.Source), the index sections
// with their records (.Sections), the pages (.Pages), the page being
// rendered (.Page, page.md.tmpl only), whether the Markdown becomes HTML
// (.HTML) and whether upstream-license.txt is written (.LicenseFile).
// Records are findings.Record values; a located record's span is
// .Location (.Path, .Lines, .SHA256, .Excerpt, .Blob, .Permalink, .Tokens,
// .MovedFrom), nil for a record not located. Data from the source reaches the
// Markdown only through these functions, which show it literally:
//
//	md TEXT           text, escaped, on one line
//	code TEXT         an inline code span
//	cell VALUE        a fact value in a table cell
//	factTables FACTS  facts arranged as tables (.Name, .Columns, .Rows)
//	excerpt RECORD    a record's excerpt as a fenced block
//	excerptHead RECORD  the same, but on the pages a long excerpt shows
//	                  its first lines and links to its record for the rest
//	wholeFile RECORD  .Bytes, .Lines and .SHA256 of the file a record
//	                  cites whole; nil when it cites part of a file
//	fence LANG TEXT   any text as a fenced block
//	url URL           a safe link destination
//	heading N TEXT ID a heading with an anchor
//	short HASH        the first 12 hex digits and "…"
//	lines LINES       "lines a–b" or "line a"
//	title RECORD      the title, with the part of the id that tells the
//	                  records of an expect: all definition apart
//	status STATUS     "Missing", "Ambiguous", …
//	recordHref RECORD, indexHref RECORD, candidateURL CANDIDATE,
//	check RECORD (the command that recomputes the hash), commit
//	figure NAME       a figure the page was given, on HTML pages only
//
// releases.md.tmpl receives .Count, .Oldest, .Newest, .Repo, .Findings,
// .Minors (newest first: .Minor, .Href, .Releases, .Oldest, .Newest,
// .From, .To, .Changes), .Minor (the newest) with its .Releases (newest
// first: .Tag, .Index, .Source, .Commit, .Version, .Date, .Located,
// .Total, .Previous, .Changes, .Counts with .Status, .N and .Href),
// .Overview (.ID, .Title, .Href, .Now, .Changes, .Last, .LastHref) and
// .RoutesPlot; releases-minor.md.tmpl receives .Repo, .Minor, .Previous,
// .Next and .Releases; releases-timeline.md.tmpl receives .ID, .Title,
// .Oldest, .Newest, .Count and .Segments (newest first: .From, .To,
// .FromHref, .Releases, .Mark, .ChangesHref, .Note, .State with .Status,
// .Path and .Lines, .RecordHref); changes.md.tmpl receives .Tag, .Previous, .Source,
// .PreviousSource, .PreviousIndex, .Summary, .Groups (.Status, .Title,
// .ID, .Entries) and .Unchanged, each entry with .ID, .Anchor, .Record,
// .Old, .New, .Href, .PreviousHref, .Note, .Tokens, .Diff, .Facts and
// .FactLists, and .Routes (.Model, .Provider, .Total, .Href, .Parts with
// .Text, .Record and .Href). routes.md.tmpl receives, beside the page
// data, .Routes: .Rows (one per model: .Model, .Provider, .Anchor,
// .Estimate, .Problem, .Route, .Prompt, .PromptHref, .RoutingHref,
// .Undecided, .Yes, .Depends, .No, .RegistryHref, .AdvertisingHref,
// .Sections, .Total), .NotCounted and .RunTime (.Record, .Href, .When).
//
// Prose from the definitions goes through claim (Markdown) and inline
// (Markdown on one line), which show raw HTML as text. goldmark runs
// without raw HTML, so no template can emit markup except through the HTML
// templates.
package templates

import "embed"

// FS holds the embedded default templates.
//
//go:embed *.tmpl style.css sections.txt
var FS embed.FS
