import PROMPT_ALPHA from "./prompt/alpha.txt"
import PROMPT_BETA from "./prompt/beta.txt"
import PROMPT_PLAIN from "./prompt/plain.txt"

// want-start: provider module
export function provider(model: { api: { id: string } }) {
  if (model.api.id.includes("alpha")) return [PROMPT_ALPHA]
  if (model.api.id.includes("beta")) return [PROMPT_BETA]
  return [PROMPT_PLAIN]
}
// want-end: provider

export function unrelated() {
  return []
}
