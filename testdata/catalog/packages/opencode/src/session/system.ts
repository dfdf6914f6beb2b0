import { Context, Effect, Layer } from "effect"
import { InstanceState } from "@/effect/instance-state"

// want-file: system-prompt-files-prompt-alpha-txt packages/opencode/src/session/prompt/alpha.txt
import PROMPT_ALPHA from "./prompt/alpha.txt"
// want-file: system-prompt-files-prompt-plain-txt packages/opencode/src/session/prompt/plain.txt
import PROMPT_PLAIN from "./prompt/plain.txt"
// want-file: system-prompt-files-prompt-wide-txt packages/opencode/src/session/prompt/wide.txt
import PROMPT_WIDE from "./prompt/wide.txt"
// want-file: system-prompt-files-prompt-wide-fast-txt packages/opencode/src/session/prompt/wide-fast.txt
import PROMPT_WIDE_FAST from "./prompt/wide-fast.txt"
import PROMPT_UNUSED from "./prompt/unused.txt"
// want-file: system-prompt-files-prompt-lower-txt packages/opencode/src/session/prompt/lower.txt
import PROMPT_LOWER from "./prompt/lower.txt"
import type { Provider } from "@/provider/provider"

// A decoy: substring tests and prompt returns outside `provider` must not
// count as routing rules.
export function legacy(id: string) {
  if (id.includes("old")) return [PROMPT_UNUSED]
  return [PROMPT_ALPHA]
}

// want-start: system-prompt-routing module
export function provider(model: Provider.Model) {
  if (model.api.id.includes("alpha")) return [PROMPT_ALPHA]
  if (model.api.id.includes("wide")) {
    if (model.api.id.includes("fast") || model.api.id.includes("quick")) {
      return [PROMPT_WIDE_FAST]
    }
    return [PROMPT_WIDE]
  }
  if (model.api.id.toLowerCase().includes("lower")) return [PROMPT_LOWER]
  return [PROMPT_PLAIN]
}
// want-end: system-prompt-routing

export class Service extends Context.Service<Service, {}>()("@fixture/SystemPrompt") {}

const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    return Service.of({
// want-start: environment-block references
      environment: Effect.fn("SystemPrompt.environment")(function* (model: Provider.Model) {
        const ctx = yield* InstanceState.context
        const references = yield* Effect.succeed(ctx.links ?? [])
        return [
          [
            `Model in use: ${model.api.id}`,
            `<env>`,
            `  Folder: ${ctx.directory}`,
            `  Today: ${new Date().toISOString()}`,
            `</env>`,
          ].join("\n"),
          references.length === 0 ? undefined : ["Linked folders:", ...references.map(String)].join("\n"),
        ].filter((part) => part !== undefined)
      }),
// want-end: environment-block

      skills: Effect.fn("SystemPrompt.skills")(function* () {
        return ["Skills list:", `${"none"}`].join("\n")
      }),
// want-start: mcp-instructions
      mcp: Effect.fn("SystemPrompt.mcp")(function* (servers: { name: string; text: string; tools: string[] }[]) {
        const kept = servers.filter((item) => item.tools.length > 1)
        if (kept.length === 0) return
        return ["<servers>", ...kept.map((item) => `[${item.name}] ${item.text}`), "</servers>"].join("\n\n")
      }),
// want-end: mcp-instructions
    })
  }),
)
