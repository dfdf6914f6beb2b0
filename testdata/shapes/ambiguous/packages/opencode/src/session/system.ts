import PROMPT_ALPHA from "./prompt/alpha.txt"
import PROMPT_PLAIN from "./prompt/plain.txt"

// Two module-level functions named provider (a merge gone wrong): the
// newest shape matches twice, so the finding is ambiguous even though the
// namespace below would match once.
export function provider(model: { api: { id: string } }) {
  return [PROMPT_PLAIN]
}

export function provider(model: { api: { id: string } }) {
  if (model.api.id.includes("alpha")) return [PROMPT_ALPHA]
  return [PROMPT_PLAIN]
}

export namespace SystemPrompt {
  export function provider(modelID: string) {
    return [PROMPT_PLAIN]
  }
}
