import { mergeDeep, pipe } from "remeda"
import { Plugin } from "../plugin"
import { SystemPrompt } from "./system"

export namespace LLM {
  // want-start: request-preparation stream-headers
  export async function stream(input: any) {
    const system = [input.agent.prompt ?? SystemPrompt.provider(input.model)].join("\n")
    await Plugin.trigger("experimental.chat.system.transform", {}, { system })
    const start = { temperature: 0 }
    const options = pipe(start, mergeDeep(input.model.options), mergeDeep(input.mode.options))
    const params = await Plugin.trigger("chat.params", { model: input.model }, { options })
    const { headers } = await Plugin.trigger("chat.headers", { model: input.model }, { headers: {} })
  // want-end: request-preparation
    await Plugin.trigger("fixture.after", {}, {})
    return { system, params, headers }
  }
}
