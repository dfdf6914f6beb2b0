import { Tool } from "./tool"

export const BashTool = Tool.define("bash", { description: "the bash tool" })

export const ReadTool = Tool.define("read", { description: "the read tool" })
