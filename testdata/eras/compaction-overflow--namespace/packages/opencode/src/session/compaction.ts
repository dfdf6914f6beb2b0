import { Flag } from "../flag/flag"

export namespace SessionCompaction {
// want-start: compaction-overflow namespace
  export function isOverflow(input: { tokens: { input: number; output: number }; model: { limit: { context: number; output: number } } }) {
    if (Flag.NO_AUTO_SUMMARY) return false
    const context = input.model.limit.context
    if (context === 0) return false
    const count = input.tokens.input + input.tokens.output
    const output = Math.min(input.model.limit.output, 16_000) || 16_000
    const usable = context - output
    return count > usable
  }
// want-end: compaction-overflow

  export function size() {
    return 0
  }
}
