import path from "path"
import { Effect } from "effect"
import * as Tool from "./tool"

export const GrepTool = Tool.define(
  "grep",
  Effect.gen(function* () {
    const searcher = yield* Searcher.Service
    return {
      description: "Search file contents.",
      execute: (params: { pattern: string; path?: string }, ctx: Tool.Context) =>
        Effect.gen(function* () {
          const empty = { title: params.pattern, metadata: {}, output: "Nothing found" }
          if (!params.pattern) {
            throw new Error("give a pattern")
          }
          const hits = yield* searcher.run({ pattern: params.pattern, max: 30 })
          if (hits.length === 0) return empty
// want-start: loop-tool-grep more-available
          const limit = 30
          const truncated = hits.length === limit
          const hasMore = truncated
          const output = [`${hits.length} hits${hasMore ? " (there are more)" : ""}`]
          let last = ""
          for (const hit of hits) {
            if (last !== hit.file) {
              if (last !== "") output.push("")
              last = hit.file
              output.push(`${path.resolve(hit.file)}:`)
            }
            output.push(`  ${hit.row}| ${hit.text}`)
          }
          if (truncated) {
            output.push("")
            output.push("(Cut at the limit.)")
          }
          return {
            title: params.pattern,
            metadata: { matches: hits.length, truncated },
            output: output.join("\n"),
          }
// want-end: loop-tool-grep
        }).pipe(Effect.orDie),
    }
  }),
)
