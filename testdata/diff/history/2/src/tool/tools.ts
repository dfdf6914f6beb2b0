import { Tool } from "./tool"

export const BashTool = Tool.define("bash", { description: "run a command" })

export const GrepTool = Tool.define("grep", { description: "search files" })
