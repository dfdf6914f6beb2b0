import { Tool } from "./tool"

export const BashTool = Tool.define("bash", { description: "run a command" })

export const ReadTool = Tool.define("read", { description: "read a file" })
