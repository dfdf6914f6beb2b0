import type { Provider } from "@/provider"
import { ProviderTransform } from "@/provider"

const COMPACTION_BUFFER = 12_000

// want-start: compaction-overflow overflow-module
export function isOverflow(input: { cfg: { compaction?: { auto?: boolean } }; tokens: { input: number; output: number }; model: Provider.Model }) {
  if (input.cfg.compaction?.auto === false) return false
  const context = input.model.limit.context
  if (context === 0) return false
  const count = input.tokens.input + input.tokens.output
  const reserved = Math.min(COMPACTION_BUFFER, ProviderTransform.maxOutputTokens(input.model))
  const usable = input.model.limit.input ? input.model.limit.input - reserved : context - reserved
  return count >= usable
}
// want-end: compaction-overflow
