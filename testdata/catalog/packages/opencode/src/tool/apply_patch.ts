import { Effect } from "effect"
import * as Tool from "./tool"
// want-file: tool-descriptions-apply-patch-txt packages/opencode/src/tool/apply_patch.txt
import DESCRIPTION from "./apply_patch.txt"

export const PatchTool = Tool.define(
  "patch",
  Effect.succeed({
    description: DESCRIPTION,
    parameters: {},
  }),
)
