// Synthetic fixture shaped like an agent's prompt routing; not upstream code.
import PROMPT_ALPHA from "./prompt/alpha.txt"
import PROMPT_PLAIN from "./prompt/plain.txt"

export function pickPrompt(model: { id: string }) {
  if (model.id.includes("alpha")) return [PROMPT_ALPHA]
  return [PROMPT_PLAIN]
}
