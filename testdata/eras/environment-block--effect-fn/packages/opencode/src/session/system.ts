import { Context, Effect, Layer } from "effect"
import { InstanceState } from "@/effect/instance-state"
import type { Provider } from "@/provider/provider"

export class Service extends Context.Service<Service, {}>()("@fixture/SystemPrompt") {}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    return Service.of({
      // want-start: environment-block effect-fn
      environment: Effect.fn("SystemPrompt.environment")(function* (model: Provider.Model) {
        const ctx = yield* InstanceState.context
        return [[`Running ${model.api.id}`, `<env>`, `  Dir: ${ctx.directory}`, `</env>`].join("\n")]
      }),
      // want-end: environment-block
    })
  }),
)
