import { Effect } from "effect"

// want-file: command-template-files-prompt-initialize packages/opencode/src/command/template/initialize.txt
import PROMPT_INITIALIZE from "./template/initialize.txt"
// want-file: command-template-files-prompt-review packages/opencode/src/command/template/review.txt
import PROMPT_REVIEW from "./template/review.txt"

export const Default = {
  INIT: "init",
  REVIEW: "review",
} as const

export const init = Effect.fn("Command.state")(function* (ctx: { worktree: string }) {
  const commands: Record<string, unknown> = {}
  commands[Default.INIT] = {
    name: Default.INIT,
    description: "set up the notes file",
    get template() {
      return PROMPT_INITIALIZE.replace("${path}", ctx.worktree)
    },
  }
  commands[Default.REVIEW] = {
    name: Default.REVIEW,
    description: "look over changes",
    get template() {
      return PROMPT_REVIEW.replace("${path}", ctx.worktree)
    },
    subtask: true,
  }
  return commands
})
