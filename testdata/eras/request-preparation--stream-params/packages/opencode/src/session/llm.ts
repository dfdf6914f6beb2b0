import { mergeDeep, pipe } from "remeda"
import { Plugin } from "../plugin"
import { SystemPrompt } from "./system"

export namespace LLM {
  // want-start: request-preparation stream-params
  export async function stream(input: any) {
    const system = [input.agent.prompt ?? SystemPrompt.provider(input.model)].join("\n")
    await Plugin.trigger("experimental.chat.system.transform", {}, { system })
    const params = await Plugin.trigger(
      "chat.params",
      { model: input.model },
      { options: pipe({}, mergeDeep(SystemPrompt.defaults(input.model)), mergeDeep(input.model.options)) },
    )
  // want-end: request-preparation
    await Plugin.trigger("fixture.after", {}, {})
    return { system, params }
  }
}
