import z from "zod/v4"
import { Tool } from "./tool"

export const BundleTool = Tool.define("bundle", async () => {
  return {
    description: "Runs calls together",
    // want-start: tool-parameters-bundle
    parameters: z.object({
      calls: z.array(z.string()).describe("Calls to run"),
    }),
    // want-end: tool-parameters-bundle
  }
})

export const OtherTool = Tool.define("other", async () => {
  // want-start: tool-parameters-other
  const parameters = z.object({ name: z.string() })
  // want-end: tool-parameters-other
  return { description: "Other", parameters }
})
