import * as Tool from "./tool"

export const WriteTool = Tool.define("write", { async execute() { return { output: "" } } })
