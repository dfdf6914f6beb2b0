import { Effect } from "effect"
import * as Tool from "./tool"
// want-file: tool-descriptions-write-txt packages/opencode/src/tool/write.txt
import DESCRIPTION from "./write.txt"

export const WriteTool = Tool.define(
  "write",
  Effect.succeed({
    description: DESCRIPTION,
    parameters: {},
  }),
)
