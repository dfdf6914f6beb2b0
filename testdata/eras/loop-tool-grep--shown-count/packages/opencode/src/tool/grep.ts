import { Tool } from "./tool"
import { Searcher } from "../file/searcher"

export const GrepTool = Tool.define("grep", {
  description: "Search file contents.",
  async execute(params) {
    const matches = await Searcher.run(params.pattern)
    if (matches === undefined) {
      throw new Error("search failed")
    }
// want-start: loop-tool-grep shown-count
    matches.sort((a, b) => b.modTime - a.modTime)
    const limit = 30
    const truncated = matches.length > limit
    const shown = truncated ? matches.slice(0, limit) : matches
    const outputLines = [`Found ${shown.length} hits`]
    for (const m of shown) {
      outputLines.push(`${m.file} ${m.row}: ${m.text}`)
    }
    if (truncated) {
      outputLines.push("")
      outputLines.push("(Cut at the limit.)")
    }
    return {
      title: params.pattern,
      metadata: { matches: shown.length, truncated },
      output: outputLines.join("\n"),
    }
// want-end: loop-tool-grep
  },
})
