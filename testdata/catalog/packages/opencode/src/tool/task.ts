import { Effect } from "effect"
// want-file: tool-descriptions-task-txt packages/opencode/src/tool/task.txt
import DESCRIPTION from "./task.txt"
import * as Tool from "./tool"

const id = "task"
const EXTRA = "Subagents may run in the background."

export const TaskTool = Tool.define(
  id,
  Effect.succeed({
    description: flags.background ? [DESCRIPTION, EXTRA].join("\n\n") : DESCRIPTION,
  }),
)
