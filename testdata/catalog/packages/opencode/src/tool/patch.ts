import z from "zod/v4"
import { Tool } from "./tool"

// want-start: tool-parameters-mend
const PatchParams = z.object({
  diff: z.string().describe("The changes, as a diff"),
  dryRun: z.boolean().describe("Only report what would change").optional(),
})
// want-end: tool-parameters-mend

export const MendTool = Tool.define("mend", {
  description: "Applies a diff",
  parameters: PatchParams,
  async execute(params: z.infer<typeof PatchParams>) {
    return { output: params.diff.length.toString() }
  },
})
