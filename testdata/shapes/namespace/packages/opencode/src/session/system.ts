import PROMPT_ALPHA from "./prompt/alpha.txt"
import PROMPT_PLAIN from "./prompt/plain.txt"

export namespace SystemPrompt {
  export function header(providerID: string) {
    return []
  }

  // want-start: provider namespace
  export function provider(modelID: string) {
    if (modelID.includes("alpha")) return [PROMPT_ALPHA]
    return [PROMPT_PLAIN]
  }
  // want-end: provider
}
