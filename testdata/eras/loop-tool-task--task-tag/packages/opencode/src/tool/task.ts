import * as Tool from "./tool"

const id = "task"

// want-start: loop-tool-task task-tag
function output(sessionID: string, text: string) {
  return [`<task id="${sessionID}" state="completed">`, "<task_result>", text, "</task_result>", "</task>"].join("\n")
}

function backgroundOutput(sessionID: string) {
  return [`<task id="${sessionID}" state="running">`, "started", "</task>"].join("\n")
}
// want-end: loop-tool-task

export const TaskTool = Tool.define(id, Effect.succeed({ execute: run }))
