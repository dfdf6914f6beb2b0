import z from "zod/v4"
import { Tool } from "./tool"

// want-start: tool-parameters-multichange
const parameters = z.object({
  file: z.string().describe("Which file"),
  count: z.number().describe("How many").optional(),
})
// want-end: tool-parameters-multichange

export const MultiChangeTool = Tool.defineEffect("multichange", { parameters })
