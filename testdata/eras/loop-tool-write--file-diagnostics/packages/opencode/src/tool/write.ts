import * as Tool from "./tool"

export const WriteTool = Tool.define("write", {
  async execute(params: { filePath: string }) {
    // want-start: loop-tool-write file-diagnostics
    let output = ""
    const diagnostics = await LSP.diagnostics()
    for (const [file, issues] of Object.entries(diagnostics)) {
      if (file === params.filePath) {
        output += `\nFix\n<file_diagnostics>\n${issues.map(LSP.Diagnostic.pretty).join("\n")}\n</file_diagnostics>\n`
        continue
      }
      output += `\n<project_diagnostics>\n${file}\n</project_diagnostics>\n`
    }
    return {
      title: params.filePath,
      metadata: { diagnostics },
      output,
    }
    // want-end: loop-tool-write
  },
})
