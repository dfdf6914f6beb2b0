import { Effect } from "effect"
import * as Tool from "./tool"
// want-file: tool-descriptions-edit-txt packages/opencode/src/tool/edit.txt
import DESCRIPTION from "./edit.txt"

export const EditTool = Tool.define(
  "edit",
  Effect.succeed({
    description: DESCRIPTION,
    parameters: {},
  }),
)

const report = Effect.fn("EditTool.report")(function* (filePath: string) {
  const diagnostics = yield* lsp.diagnostics()
  // want-start: loop-tool-edit report-block
  let output = "Edited."
  const block = LSP.Diagnostic.report(filePath, diagnostics[filePath] ?? [])
  if (block) output += `\n\nErrors here:\n${block}`
  return {
    title: filePath,
    metadata: { diagnostics },
    output,
  }
  // want-end: loop-tool-edit
})

export function replace(content: string, find: string) {
  if (!content.includes(find)) throw new Error("not found")
  return content
}
