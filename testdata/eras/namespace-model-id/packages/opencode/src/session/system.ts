import { Instance } from "../project/instance"

import PROMPT_ALPHA from "./prompt/alpha.txt"
import PROMPT_WIDE from "./prompt/wide.txt"
import PROMPT_PLAIN from "./prompt/plain.txt"

export namespace SystemPrompt {
  export function header(providerID: string) {
    if (providerID.includes("house")) return [PROMPT_ALPHA]
    return []
  }

  // want-start: system-prompt-routing namespace-model-id
  export function provider(modelID: string) {
    if (modelID.includes("alpha")) return [PROMPT_ALPHA]
    if (modelID.includes("wide-") || modelID.includes("broad")) return [PROMPT_WIDE]
    return [PROMPT_PLAIN]
  }
  // want-end: system-prompt-routing

  export async function environment() {
    return [`<env>`, `  Folder: ${Instance.directory}`, `</env>`].join("\n")
  }
}
