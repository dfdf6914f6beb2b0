import * as Tool from "./tool"

export const EditTool = Tool.define("edit", { async execute() { return { output: "" } } })
