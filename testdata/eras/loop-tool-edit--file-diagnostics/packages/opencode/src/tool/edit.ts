import * as Tool from "./tool"

export const EditTool = Tool.define("edit", {
  async execute(params: { filePath: string }) {
    if (!params.filePath) throw new Error("no path")
    // want-start: loop-tool-edit file-diagnostics
    let output = ""
    const diagnostics = await LSP.diagnostics()
    for (const [file, issues] of Object.entries(diagnostics)) {
      if (file === params.filePath) {
        output += `\nFix these\n<file_diagnostics>\n${issues.map(LSP.Diagnostic.pretty).join("\n")}\n</file_diagnostics>\n`
      }
    }
    return {
      title: params.filePath,
      metadata: { diagnostics },
      output,
    }
    // want-end: loop-tool-edit
  },
})
