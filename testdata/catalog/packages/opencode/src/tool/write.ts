import { Effect } from "effect"
import * as Tool from "./tool"
// want-file: tool-descriptions-write-txt packages/opencode/src/tool/write.txt
import DESCRIPTION from "./write.txt"

export const WriteTool = Tool.define(
  "write",
  Effect.succeed({
    description: DESCRIPTION,
    parameters: {},
  }),
)

const MAX_PROJECT_DIAGNOSTICS_FILES = 3

const report = Effect.fn("WriteTool.report")(function* (filepath: string) {
  const diagnostics = yield* lsp.diagnostics()
  let count = 0
  // want-start: loop-tool-write report-block
  let output = "Written."
  for (const [file, issues] of Object.entries(diagnostics)) {
    const current = file === filepath
    if (!current && count >= MAX_PROJECT_DIAGNOSTICS_FILES) continue
    const block = LSP.Diagnostic.report(file, issues)
    if (!block) continue
    if (current) {
      output += `\n\nErrors here:\n${block}`
      continue
    }
    count++
    output += `\n\nErrors elsewhere:\n${block}`
  }
  return {
    title: filepath,
    metadata: { diagnostics },
    output,
  }
  // want-end: loop-tool-write
})
