import * as Tool from "./tool"

const MAX_OUTPUT_LENGTH = 500

export const BashTool = Tool.define("bash", {
  async execute(params: { command: string }) {
    let { output, aborted, code } = await spawn(params.command)
    // want-start: loop-tool-shell notices
    if (output.length > MAX_OUTPUT_LENGTH) {
      output = output.slice(0, MAX_OUTPUT_LENGTH)
      output += "\n\n(truncated here)"
    }
    if (aborted) {
      output += "\n\n(aborted)"
    }
    return {
      title: params.command,
      metadata: { output, exit: code },
      output,
    }
    // want-end: loop-tool-shell
  },
})
