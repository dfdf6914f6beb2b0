import * as Tool from "./tool"

export const BashTool = Tool.define("bash", {
  async execute(params: { command: string; timeout: number }) {
    const { output: text, timedOut, code } = await spawn(params.command)
    let output = text
    // want-start: loop-tool-shell bash-metadata
    const resultMetadata: string[] = []
    if (timedOut) {
      resultMetadata.push(`gave up after ${params.timeout} ms`)
    }
    if (resultMetadata.length > 0) {
      output += "\n\n<bash_metadata>\n" + resultMetadata.join("\n") + "\n</bash_metadata>"
    }
    return {
      title: params.command,
      metadata: { exit: code },
      output,
    }
    // want-end: loop-tool-shell
  },
})
