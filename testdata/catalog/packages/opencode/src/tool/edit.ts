import { Effect } from "effect"
import * as Tool from "./tool"
// want-file: tool-descriptions-edit-txt packages/opencode/src/tool/edit.txt
import DESCRIPTION from "./edit.txt"

export const EditTool = Tool.define(
  "edit",
  Effect.succeed({
    description: DESCRIPTION,
    parameters: {},
  }),
)
