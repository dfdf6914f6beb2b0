import * as Tool from "./tool"

const MAX_DIAGNOSTICS_PER_FILE = 3

export const EditTool = Tool.define("edit", {
  async execute(params: { filePath: string }) {
    if (!params.filePath) throw new Error("no path")
    const diagnostics = await LSP.diagnostics()
    const errors = (diagnostics[params.filePath] ?? []).filter((item) => item.severity === 1)
    // want-start: loop-tool-edit inline-diagnostics
    let output = "Edit done."
    if (errors.length > 0) {
      const limited = errors.slice(0, MAX_DIAGNOSTICS_PER_FILE)
      output += `\n\nErrors:\n<diagnostics file="${params.filePath}">\n${limited.map(LSP.Diagnostic.pretty).join("\n")}\n</diagnostics>`
    }
    return {
      title: params.filePath,
      metadata: { diagnostics },
      output,
    }
    // want-end: loop-tool-edit
  },
})
