import path from "path"
import { Effect } from "effect"
import * as Tool from "./tool"

export const GlobTool = Tool.define(
  "glob",
  Effect.gen(function* () {
    const finder = yield* Finder.Service
    return {
      description: "Find files by pattern.",
      execute: (params: { pattern: string; path?: string }, ctx: Tool.Context) =>
        Effect.gen(function* () {
          const root = params.path ?? ctx.directory
          const kind = yield* finder.kind(root)
          if (kind === "file") {
            throw new Error(`not a folder: ${root}`)
          }
// want-start: loop-tool-glob search-limit
          const limit = 40
          const files = yield* finder.find({ root, pattern: params.pattern, limit })
          const truncated = files.length === limit

          const output = []
          if (files.length === 0) output.push("Nothing matched")
          if (files.length > 0) {
            output.push(...files.map((f) => path.join(root, f.name)))
            if (truncated) {
              output.push("")
              output.push(`(Only the first ${limit} files are listed.)`)
            }
          }

          return {
            title: root,
            metadata: { count: files.length, truncated },
            output: output.join("\n"),
          }
// want-end: loop-tool-glob
        }).pipe(Effect.orDie),
    }
  }),
)
