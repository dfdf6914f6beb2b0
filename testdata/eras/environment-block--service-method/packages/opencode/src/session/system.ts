import { Context, Effect, Layer } from "effect"
import { Instance } from "../project/instance"
import type { Provider } from "@/provider/provider"

export class Service extends Context.Service<Service, {}>()("@fixture/SystemPrompt") {}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const greeting = "hello"
    return Service.of({
      // want-start: environment-block service-method
      environment(model) {
        const where = Instance.directory
        return [[`Running ${model.api.id}`, `<env>`, `  Dir: ${where}`, `</env>`].join("\n")]
      },
      // want-end: environment-block

      greet() {
        return greeting
      },
    })
  }),
)
