import * as Tool from "./tool"

const id = "task"

// want-start: loop-tool-task task-id-functions
function output(sessionID: string, text: string) {
  return [`task_id: ${sessionID}`, "<task_result>", text, "</task_result>"].join("\n")
}

function backgroundOutput(sessionID: string) {
  return [`task_id: ${sessionID}`, "state: running"].join("\n")
}
// want-end: loop-tool-task

export const TaskTool = Tool.define(id, Effect.succeed({ execute: run }))
