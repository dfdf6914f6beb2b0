import * as Tool from "./tool"

const MAX_DIAGNOSTICS_PER_FILE = 3
const MAX_PROJECT_DIAGNOSTICS_FILES = 2

export const WriteTool = Tool.define("write", {
  async execute(params: { filePath: string }) {
    const diagnostics = await LSP.diagnostics()
    let others = 0
    // want-start: loop-tool-write inline-diagnostics
    let output = "Written."
    for (const [file, issues] of Object.entries(diagnostics)) {
      const limited = issues.slice(0, MAX_DIAGNOSTICS_PER_FILE)
      if (file === params.filePath) {
        output += `\n\nHere:\n<diagnostics file="${file}">\n${limited.map(LSP.Diagnostic.pretty).join("\n")}\n</diagnostics>`
        continue
      }
      if (others++ >= MAX_PROJECT_DIAGNOSTICS_FILES) continue
      output += `\n\nElsewhere:\n<diagnostics file="${file}">\n${limited.map(LSP.Diagnostic.pretty).join("\n")}\n</diagnostics>`
    }
    return {
      title: params.filePath,
      metadata: { diagnostics },
      output,
    }
    // want-end: loop-tool-write
  },
})
