import * as Tool from "./tool"

const finish = Effect.fn("BashTool.finish")(function* (input: { timeout: number }, state: State) {
  // want-start: loop-tool-shell bash-tail
  const meta: string[] = []
  if (state.expired) meta.push(`ran past ${input.timeout} ms`)
  let output = state.text
  if (!output) output = "(no output at all)"
  if (state.file) {
    output = `[cut, whole text in ${state.file}]\n\n` + output
  }
  if (meta.length > 0) {
    output += "\n\n<bash_metadata>\n" + meta.join("\n") + "\n</bash_metadata>"
  }
  return {
    title: "bash",
    metadata: { output, exit: state.code },
    output,
  }
  // want-end: loop-tool-shell
})

export const BashTool = Tool.define("bash", Effect.succeed({ execute: finish }))
