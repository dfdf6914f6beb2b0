import { Effect, Schema } from "effect"
import * as Tool from "./tool"

export const Parameters = Schema.Struct({ name: Schema.String, reason: Schema.String })

export const BrokenTool =
  // want-start: invalid-tool
  Tool.define(
    "invalid",
    Effect.succeed({
      description: "Internal",
      parameters: Parameters,
      execute: (params: { name: string; reason: string }) =>
        Effect.succeed({ title: "Broken", output: `Could not run that call: ${params.reason}`, metadata: {} }),
    }),
  )
// want-end: invalid-tool
