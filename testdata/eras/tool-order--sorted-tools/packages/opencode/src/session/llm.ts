import { Effect } from "effect"

export const run = Effect.fn("LLM.run")(function* (input: any) {
  const tools: Record<string, unknown> = { ...input.tools }
  // want-start: tool-order sorted-tools
  const sortedTools = Object.fromEntries(Object.entries(tools).toSorted(([a], [b]) => b.localeCompare(a)))
  // want-end: tool-order
  return yield* input.send({ tools: sortedTools })
})
