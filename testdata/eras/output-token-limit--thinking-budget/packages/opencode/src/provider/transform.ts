export namespace ProviderTransform {
  // want-start: output-token-limit thinking-budget
  export function maxOutputTokens(
    npm: string,
    options: Record<string, any>,
    modelLimit: number,
    globalLimit: number,
  ): number {
    const cap = modelLimit || globalLimit
    const plain = Math.min(cap, globalLimit)

    if (npm === "@sdk/anthropic") {
      const thinking = options?.["thinking"]
      const budget = typeof thinking?.["budgetTokens"] === "number" ? thinking["budgetTokens"] : 0
      if (thinking?.["type"] === "enabled" && budget > 0) {
        if (budget + plain <= cap) {
          return plain
        }
        return cap - budget
      }
    }

    return plain
  }
  // want-end: output-token-limit
}
