import { Settings } from "../settings"

// want-file: system-prompt-files-prompt-plain-txt packages/opencode/src/session/prompt/plain.txt
import PROMPT_PLAIN from "./prompt/plain.txt"
// want-file: system-prompt-files-prompt-wide-txt packages/opencode/src/session/prompt/wide.txt
import PROMPT_WIDE from "./prompt/wide.txt"
import PROMPT_HEAD from "./prompt/head.txt"
// want-file: agent-prompt-files-prompt-summary-txt packages/opencode/src/session/prompt/summary.txt
import PROMPT_SUMMARY from "./prompt/summary.txt"

export namespace SystemPrompt {
  export function header(providerID: string) {
    if (providerID.includes("house")) return [PROMPT_HEAD.trim()]
    return []
  }

  // want-start: system-prompt-routing namespace-model-id
  export function provider(modelID: string) {
    if (modelID.includes("wide-") || modelID.includes("broad")) return [PROMPT_WIDE]
    return [PROMPT_PLAIN]
  }
  // want-end: system-prompt-routing

  export function summarize() {
    if (Settings.short) return [PROMPT_SUMMARY]
    return [PROMPT_SUMMARY, PROMPT_PLAIN]
  }
}
