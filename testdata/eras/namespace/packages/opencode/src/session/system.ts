import { Instance } from "../project/instance"

import PROMPT_ALPHA from "./prompt/alpha.txt"
import PROMPT_WIDE from "./prompt/wide.txt"
import PROMPT_WIDE_FAST from "./prompt/wide-fast.txt"
import PROMPT_PLAIN from "./prompt/plain.txt"
import type { Provider } from "@/provider/provider"

export namespace SystemPrompt {
  export function header(providerID: string) {
    if (providerID.includes("house")) return [PROMPT_ALPHA]
    return []
  }

  // want-start: system-prompt-routing namespace
  export function provider(model: Provider.Model) {
    if (model.api.id.includes("alpha")) return [PROMPT_ALPHA]
    if (model.api.id.includes("wide")) {
      if (model.api.id.includes("fast")) {
        return [PROMPT_WIDE_FAST]
      }
      return [PROMPT_WIDE]
    }
    return [PROMPT_PLAIN]
  }
  // want-end: system-prompt-routing

  export async function environment() {
    return [`<env>`, `  Folder: ${Instance.directory}`, `</env>`].join("\n")
  }
}
