import * as Tool from "./tool"

export const ApplyPatchTool = Tool.define("apply_patch", {
  async execute(params: { patchText: string }) {
    if (!params.patchText) throw new Error("empty")
    const changes = await apply(params.patchText)
    const diagnostics = await LSP.diagnostics()
    // want-start: loop-tool-apply-patch inline-diagnostics
    const summaryLines = changes.map((change) => `M ${change.path}`)
    let output = `Patched:\n${summaryLines.join("\n")}`
    const MAX_DIAGNOSTICS_PER_FILE = 4
    for (const change of changes) {
      const errors = diagnostics[change.path] ?? []
      if (errors.length > 0) {
        output += `\n\nIn ${change.path}:\n<diagnostics file="${change.path}">\n${errors.slice(0, MAX_DIAGNOSTICS_PER_FILE).join("\n")}\n</diagnostics>`
      }
    }
    return {
      title: output,
      metadata: { diagnostics },
      output,
    }
    // want-end: loop-tool-apply-patch
  },
})
