import * as Tool from "./tool"

export const TaskTool = Tool.define("task", {
  async execute(params: { prompt: string }) {
    const result = await prompt(params.prompt)
    const steps = result.steps.length
    // want-start: loop-tool-task task-metadata
    const text = result.messages.findLast((m) => m.kind === "text")?.body ?? ""
    const output = text + "\n\n" + ["<task_metadata>", `session: ${result.sessionID}`, "</task_metadata>"].join("\n")

    return {
      title: params.description,
      metadata: {},
      output,
    }
    // want-end: loop-tool-task
  },
})
