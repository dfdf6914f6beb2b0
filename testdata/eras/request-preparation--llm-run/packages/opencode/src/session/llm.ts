import { Effect } from "effect"
import { mergeDeep, pipe } from "remeda"
import { SystemPrompt } from "./system"

export const layer = Effect.gen(function* () {
  const plugin = yield* Effect.succeed({ trigger: (..._: unknown[]) => Effect.succeed({ headers: {} }) })

  // want-start: request-preparation llm-run
  const run = Effect.fn("LLM.run")(function* (input: any) {
    const system = [input.agent.prompt ?? SystemPrompt.provider(input.model)].join("\n")
    yield* plugin.trigger("experimental.chat.system.transform", { model: input.model }, { system })
    const seed = { temperature: 0 }
    const options = pipe(seed, mergeDeep(input.vendor.options), mergeDeep(input.agent.options))
    const params = yield* plugin.trigger("chat.params", { model: input.model }, { options })
    const { headers } = yield* plugin.trigger("chat.headers", { model: input.model }, { headers: {} })
  // want-end: request-preparation
    yield* plugin.trigger("fixture.after", {}, {})
    return { system, params, headers }
  })

  return { run }
})
