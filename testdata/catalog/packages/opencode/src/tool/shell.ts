import { Effect } from "effect"
import * as Tool from "./tool"
import { ShellID } from "./shell/id"

const finish = Effect.fn("Shell.finish")(function* (input: { timeout: number }, state: State) {
  const { raw, file, stopped, cancelled, code } = state
  // want-start: loop-tool-shell shell-metadata
  const meta: string[] = []
  if (stopped) meta.push(`stopped after ${input.timeout} ms`)
  if (cancelled) meta.push("cancelled by the user")
  let output = raw
  if (!output) output = "(nothing printed)"
  if (file) {
    output = `[cut; see ${file}]\n\n` + output
  }
  if (meta.length > 0) {
    output += "\n\n<shell_metadata>\n" + meta.join("\n") + "\n</shell_metadata>"
  }
  return {
    title: "shell",
    metadata: { output, exit: code },
    output,
  }
  // want-end: loop-tool-shell
})

export const ShellTool = Tool.define(
  ShellID.ToolID,
  Effect.succeed({ execute: finish }),
)
