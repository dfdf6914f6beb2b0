import { Effect } from "effect"
import { Permission } from "@/permission"

// want-file: agent-prompt-files-generate-txt packages/opencode/src/agent/generate.txt
import PROMPT_GENERATE from "./generate.txt"
// want-file: agent-prompt-files-prompt-compaction-txt packages/opencode/src/agent/prompt/compaction.txt
import PROMPT_COMPACTION from "./prompt/compaction.txt"
// want-file: agent-prompt-files-prompt-explore-txt packages/opencode/src/agent/prompt/explore.txt
import PROMPT_EXPLORE from "./prompt/explore.txt"
// want-file: agent-prompt-files-prompt-title-txt packages/opencode/src/agent/prompt/title.txt
import PROMPT_TITLE from "./prompt/title.txt"
import NOTES from "./notes.txt"

export const state = Effect.fn("Agent.state")(function* () {
  const defaults = Permission.fromConfig({ "*": "allow" })
  const agents = {
    build: {
      name: "build",
      mode: "primary",
      permission: defaults,
    },
    explore: {
      name: "explore",
      mode: "subagent",
      permission: Permission.merge(defaults, Permission.fromConfig({ "*": "deny", read: "allow" })),
      prompt: PROMPT_EXPLORE,
    },
    compaction: {
      name: "compaction",
      mode: "primary",
      hidden: true,
      prompt: PROMPT_COMPACTION,
      permission: Permission.fromConfig({ "*": "deny" }),
    },
    title: {
      name: "title",
      mode: "primary",
      hidden: true,
      temperature: 0.4,
      permission: Permission.fromConfig({ "*": "deny" }),
      prompt: PROMPT_TITLE,
    },
  }
  return { agents, notes: NOTES }
})

export const generate = Effect.fn("Agent.generate")(function* (input: { description: string }) {
  const system = [PROMPT_GENERATE]
  return { system, description: input.description }
})
