import * as Tool from "./tool"

export const TaskTool = Tool.define("task", {
  async execute(params: { prompt: string }) {
    const result = await prompt(params.prompt)
    // want-start: loop-tool-task last-text
    return {
      title: params.description,
      metadata: {},
      output: result.parts.findLast((x) => x.type === "text")?.text ?? "",
    }
    // want-end: loop-tool-task
  },
})
