import { Effect, Schema } from "effect"
import * as Tool from "./tool"

// want-start: tool-parameters-execute
export const Parameters = Schema.Struct({
  script: Schema.String.annotate({ description: "Script to run" }),
  budget: Schema.optional(Schema.Number).annotate({ description: "Seconds allowed" }),
})
// want-end: tool-parameters-execute

export const CodeModeTool = Tool.define(
  "execute",
  Effect.succeed({ description: "Runs a script", parameters: Parameters, execute: () => Effect.succeed({}) }),
)
