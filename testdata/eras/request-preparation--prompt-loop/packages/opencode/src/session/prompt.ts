import { Plugin } from "../plugin"

export namespace SessionPrompt {
  async function resolveSystemPrompt(input: { agent: any; system?: string }) {
    return [input.system ?? input.agent.prompt ?? "fixture"]
  }

  export async function prompt(input: any) {
    const agent = input.agent
    const model = input.model

    // want-start: request-preparation prompt-loop
    const system = await resolveSystemPrompt({
      agent,
      system: input.system,
    })

    const params = await Plugin.trigger(
      "chat.params",
      { model },
      {
        temperature: agent.temperature,
        options: {
          ...model.defaults,
          ...agent.options,
        },
      },
    )
    // want-end: request-preparation

    while (true) {
      await Plugin.trigger("fixture.step", { system }, { params })
      break
    }
  }
}
