import { Effect } from "effect"
import * as Tool from "./tool"

export const LspTool = Tool.define(
  "lsp",
  Effect.gen(function* () {
    const servers = yield* Servers.Service
    return {
      description: "Ask a language server.",
      execute: (args: { operation: string; filePath: string }, ctx: Tool.Context) =>
        Effect.gen(function* () {
          const file = args.filePath
// want-start: loop-tool-lsp inline-output
          const exists = yield* servers.fileExists(file)
          if (!exists) throw new Error(`missing: ${file}`)

          const result: unknown[] = yield* (() => {
            switch (args.operation) {
              case "hover":
                return servers.hover(file)
              case "references":
                return servers.references(file)
            }
          })()

          return {
            title: args.operation,
            metadata: { result },
            output: result.length === 0 ? `Nothing for ${args.operation}` : JSON.stringify(result),
          }
// want-end: loop-tool-lsp
        }).pipe(Effect.orDie),
    }
  }),
)
