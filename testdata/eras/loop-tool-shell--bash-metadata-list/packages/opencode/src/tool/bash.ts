import * as Tool from "./tool"

const MAX_OUTPUT_LENGTH = 1000

export const BashTool = Tool.define("bash", {
  async execute(params: { command: string }) {
    let { output, timedOut, code } = await spawn(params.command)
    // want-start: loop-tool-shell bash-metadata-list
    let resultMetadata: String[] = ["<bash_metadata>"]
    if (output.length > MAX_OUTPUT_LENGTH) {
      output = output.slice(0, MAX_OUTPUT_LENGTH)
      resultMetadata.push(`cut at ${MAX_OUTPUT_LENGTH} chars, truncated`)
    }
    if (timedOut) {
      resultMetadata.push("out of time")
    }
    if (resultMetadata.length > 1) {
      resultMetadata.push("</bash_metadata>")
      output += "\n\n" + resultMetadata.join("\n")
    }
    return {
      title: params.command,
      metadata: { output, exit: code },
      output,
    }
    // want-end: loop-tool-shell
  },
})
