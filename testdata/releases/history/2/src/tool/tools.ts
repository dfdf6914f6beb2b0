import { Tool } from "./tool"

export const BashTool = Tool.define("bash", { description: "the bash tool" })

export const GrepTool = Tool.define("grep", { description: "the grep tool" })
