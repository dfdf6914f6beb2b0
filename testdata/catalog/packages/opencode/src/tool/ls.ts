import z from "zod/v4"
import { Tool } from "./tool"

export const ListTool = Tool.define("listing", {
  description: "Lists a folder",
  // want-start: tool-parameters-listing
  parameters: z.object({
    folder: z.string().describe("Folder to list").optional(),
  }),
  // want-end: tool-parameters-listing
  async execute() {
    return { output: "" }
  },
})
