import { Effect } from "effect"
import * as Tool from "./tool"
// want-file: tool-descriptions-apply-patch-txt packages/opencode/src/tool/apply_patch.txt
import DESCRIPTION from "./apply_patch.txt"

export const PatchTool = Tool.define(
  "patch",
  Effect.succeed({
    description: DESCRIPTION,
    parameters: {},
  }),
)

const summarize = Effect.fn("PatchTool.summarize")(function* (changes: Change[]) {
  if (changes.length === 0) return yield* Effect.fail(new Error("nothing to apply"))
  const diagnostics = yield* lsp.diagnostics()
  // want-start: loop-tool-apply-patch report-block
  const summaryLines = changes.map((change) => {
    if (change.type === "add") return `A ${change.path}`
    return `M ${change.path}`
  })
  let output = `Applied:\n${summaryLines.join("\n")}`
  for (const change of changes) {
    const block = LSP.Diagnostic.report(change.path, diagnostics[change.path] ?? [])
    if (!block) continue
    output += `\n\nErrors in ${change.path}:\n${block}`
  }
  return {
    title: output,
    metadata: { diagnostics },
    output,
  }
  // want-end: loop-tool-apply-patch
})
