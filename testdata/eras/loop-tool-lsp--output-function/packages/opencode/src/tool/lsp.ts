import { Tool } from "./tool"
import { Servers } from "../lsp/servers"

export const LspTool = Tool.define("lsp", {
  description: "Ask a language server.",
  async execute(args) {
    const file = args.filePath
// want-start: loop-tool-lsp output-function
    const exists = await Servers.fileExists(file)
    if (!exists) {
      throw new Error(`missing: ${file}`)
    }

    const result: unknown[] = await Servers.run(args.operation, file)

    const output = (() => {
      if (result.length === 0) return `Nothing for ${args.operation}`
      return JSON.stringify(result)
    })()

    return {
      title: args.operation,
      metadata: { result },
      output,
    }
// want-end: loop-tool-lsp
  },
})
