import { Tool } from "./tool"
import { Searcher } from "../file/searcher"

const MAX_LINE_LENGTH = 500

export const GrepTool = Tool.define("grep", {
  description: "Search file contents.",
  async execute(params) {
    const { hits, failed } = await Searcher.run(params.pattern)
    const matches = hits.map((h) => ({ ...h, modTime: h.time }))
// want-start: loop-tool-grep total-shown
    matches.sort((a, b) => b.modTime - a.modTime)
    const limit = 30
    const truncated = matches.length > limit
    const shown = truncated ? matches.slice(0, limit) : matches
    if (shown.length === 0) {
      return { title: params.pattern, metadata: {}, output: "Nothing found" }
    }
    const outputLines = [`${matches.length} hits${truncated ? ` (first ${limit} shown; showing first)` : ""}`]
    for (const m of shown) {
      const text = m.text.length > MAX_LINE_LENGTH ? m.text.substring(0, MAX_LINE_LENGTH) + "..." : m.text
      outputLines.push(`${m.file} ${m.row}: ${text}`)
    }
    if (truncated) {
      outputLines.push("")
      outputLines.push(`(${matches.length - limit} more not shown.)`)
    }
    if (failed) {
      outputLines.push("")
      outputLines.push("(Some folders could not be read.)")
    }
    return {
      title: params.pattern,
      metadata: { matches: matches.length, truncated },
      output: outputLines.join("\n"),
    }
// want-end: loop-tool-grep
  },
})
