export * as ToolOutputStore from "./tool-output-store"

export const MAX_LINES = 1_200
export const MAX_BYTES = 24 * 1024

const split = (text: string, maxLines: number) => {
  const lines = text.split("\n")
  return { head: lines.slice(0, maxLines / 2).join("\n"), tail: lines.slice(-maxLines / 2).join("\n") }
}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const save = Effect.fn("ToolOutputStore.save")(function* (text: string) {
      return { uri: `store://${text.length}` }
    })

// want-start: tool-output-bounds truncate
    const truncate = Effect.fn("ToolOutputStore.truncate")(function* (input: { content: string }) {
      if (input.content.split("\n").length <= MAX_LINES) return { content: input.content, truncated: false }
      const saved = yield* save(input.content)
      const cut = split(input.content, MAX_LINES)
      const marker = `[cut; see ${saved.uri}]`
      return { content: cut.tail ? `${cut.head}\n${marker}\n${cut.tail}` : `${cut.head}\n${marker}`, truncated: true }
    })
// want-end: tool-output-bounds

    return Service.of({ truncate })
  }),
)
