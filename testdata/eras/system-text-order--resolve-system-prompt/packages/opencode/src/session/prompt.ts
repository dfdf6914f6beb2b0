import { SystemPrompt } from "./system"

export namespace SessionPrompt {
  // want-start: system-text-order resolve-system-prompt
  async function resolveSystemPrompt(input: { system?: string; agent: any; modelID: string }) {
    let system = SystemPrompt.header(input.modelID)
    system.push(
      ...(() => {
        if (input.system) return [input.system]
        return SystemPrompt.provider(input.modelID)
      })(),
    )
    system.push(...(await SystemPrompt.rules()))
    const [first, ...rest] = system
    system = [first, rest.join("\n")]
    return system
  }
  // want-end: system-text-order
}
