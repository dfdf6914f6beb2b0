import { Effect } from "effect"
// want-file: tool-descriptions-task-txt packages/opencode/src/tool/task.txt
import DESCRIPTION from "./task.txt"
import * as Tool from "./tool"

const id = "task"
const EXTRA = "Subagents may run in the background."

export const TaskTool = Tool.define(
  id,
  Effect.succeed({
    description: flags.background ? [DESCRIPTION, EXTRA].join("\n\n") : DESCRIPTION,
    execute: (done: { status: string; error?: string }) => {
      if (done.status === "error") throw new Error(done.error ?? "Subagent broke")
      if (done.status === "cancelled") throw new Error("Subagent stopped")
      return done
    },
  }),
)

// want-start: loop-tool-task render-output
function renderOutput(input: { sessionID: string; state: string; text: string }) {
  const tag = input.state === "error" ? "task_error" : "task_result"
  return [`<task id="${input.sessionID}">`, `<${tag}>`, input.text, `</${tag}>`, "</task>"].join("\n")
}
// want-end: loop-tool-task
