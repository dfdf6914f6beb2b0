import * as Tool from "./tool"

export const TaskTool = Tool.define("task", {
  async execute(params: { prompt: string }) {
    const agent = await Agent.get(params.agent)
    if (!agent) throw new Error("no such agent")
    const result = await prompt(params.prompt)
    // want-start: loop-tool-task task-id-inline
    return {
      title: params.description,
      metadata: {},
      output: [`task_id: ${result.sessionID}`, "<task_result>", result.text, "</task_result>"].join("\n"),
    }
    // want-end: loop-tool-task
  },
})
