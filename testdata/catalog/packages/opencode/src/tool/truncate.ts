import { Effect } from "effect"

export const MAX_LINES = 100
export const MAX_BYTES = 4 * 1024

function canDelegate(agent?: { task: boolean }) {
  return agent?.task === true
}

export const make = Effect.gen(function* () {
  // want-start: loop-truncation effect-service
  const output = Effect.fn("Truncate.output")(function* (text: string, options: { maxLines?: number } = {}, agent?: { task: boolean }) {
    const maxLines = options.maxLines ?? MAX_LINES
    const lines = text.split("\n")
    if (lines.length <= maxLines) return { content: text, truncated: false } as const
    const kept = lines.slice(0, maxLines).join("\n")
    const file = yield* save(text)
    const hint = canDelegate(agent) ? `Saved to ${file}; delegate the search.` : `Saved to ${file}; search it.`
    return { content: `${kept}\n\n...${lines.length - maxLines} lines truncated...\n\n${hint}`, truncated: true } as const
  })
  // want-end: loop-truncation
  return { output }
})
