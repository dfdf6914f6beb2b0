import { Effect } from "effect"
import { SystemPrompt } from "../system"

const mergeOptions = (target: Record<string, any>, source: Record<string, any> | undefined) => ({
  ...target,
  ...(source ?? {}),
})

// want-start: request-preparation prepare
export const prepare = Effect.fn("LLMRequestPrep.prepare")(function* (input: any) {
  const system = [input.agent.prompt ?? SystemPrompt.provider(input.model)].join("\n")
  yield* input.plugin.trigger("fixture.system.rewrite", { model: input.model }, { system })
  const defaults = { temperature: 0 }
  const options = mergeOptions(mergeOptions(defaults, input.provider.options), input.agent.options)
  const params = yield* input.plugin.trigger("chat.params", { model: input.model }, { options })
  const { headers } = yield* input.plugin.trigger("chat.headers", { model: input.model }, { headers: {} })
  yield* input.plugin.trigger("fixture.after", {}, {})
  return {
    system,
    params,
    headers: {
      ...(input.model.providerID === "fixture"
        ? { "x-fixture-session": input.sessionID, "User-Agent": "fixture" }
        : { "x-session": input.sessionID, "User-Agent": "fixture" }),
      ...input.model.headers,
      ...headers,
    },
  }
// want-end: request-preparation
})
