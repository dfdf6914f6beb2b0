import type { Provider } from "@/provider/provider"
import { ProviderTransform } from "@/provider/transform"

const COMPACTION_BUFFER = 10_000

// want-start: compaction-overflow usable-function
export function usable(input: { cfg: { compaction?: { reserved?: number } }; model: Provider.Model }) {
  const context = input.model.limit.context
  if (context === 0) return 0
  const reserved = input.cfg.compaction?.reserved ?? Math.min(COMPACTION_BUFFER, ProviderTransform.maxOutputTokens(input.model))
  return input.model.limit.input
    ? Math.max(0, input.model.limit.input - reserved)
    : Math.max(0, context - ProviderTransform.maxOutputTokens(input.model))
}

export function isOverflow(input: {
  cfg: { compaction?: { auto?: boolean; reserved?: number } }
  tokens: { total?: number; input: number; output: number }
  model: Provider.Model
}) {
  if (input.cfg.compaction?.auto === false) return false
  if (input.model.limit.context === 0) return false
  const count = input.tokens.total || input.tokens.input + input.tokens.output
  return count >= usable(input)
}
// want-end: compaction-overflow

export function describe() {
  return "overflow"
}
