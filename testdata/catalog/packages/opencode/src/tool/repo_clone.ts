import z from "zod/v4"
import { Effect } from "effect"
import { Tool } from "./tool"
import { Mirror } from "../mirror"

export const CopyTool = Tool.define(
  "copy",
  Effect.gen(function* () {
    const mirror = yield* Mirror.Service

    return {
      description: "Copies a remote project",
      // want-start: tool-parameters-copy
      parameters: z.object({
        source: z.string().describe("Where to copy from"),
        shallow: z.boolean().optional().describe("Skip the history"),
      }),
      // want-end: tool-parameters-copy
      execute: (params: { source: string; shallow?: boolean }) =>
        Effect.gen(function* () {
          yield* mirror.copy(params.source)
          return { output: params.source }
        }),
    }
  }),
)
