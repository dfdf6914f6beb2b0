import z from "zod/v4"
import { Effect } from "effect"
import { Tool } from "./tool"

const LIMIT = 40

// want-start: tool-parameters-survey
const Parameters = z.object({
  root: z.string().describe("Where to start"),
  depth: z
    .number()
    .describe(`How deep to go (at most ${LIMIT})`)
    .optional(),
})
// want-end: tool-parameters-survey

export const SurveyTool = Tool.define(
  "survey",
  Effect.gen(function* () {
    return {
      description: "Summarises a folder",
      parameters: Parameters,
      execute: (params: z.infer<typeof Parameters>) => Effect.succeed({ output: params.root }),
    }
  }),
)
