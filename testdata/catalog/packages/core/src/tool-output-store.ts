export * as ToolOutputStore from "./tool-output-store"

// want-start: tool-output-bounds preview
export const MAX_LINES = 1_500
export const MAX_BYTES = 16 * 1024

const halves = (text: string, max: number) => {
  const lines = text.split("\n")
  return { head: lines.slice(0, max / 2).join("\n"), tail: lines.slice(-max / 2).join("\n") }
}

const boundedPreview = (text: string, marker: string, maxLines: number, maxBytes: number) => {
  const cut = halves(text, maxLines - 2)
  return cut.tail ? `${cut.head}\n${marker}\n${cut.tail}` : `${cut.head}\n${marker}`
}

const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const bound = Effect.fn("ToolOutputStore.bound")(function* (input: any) {
      const file = yield* write(input.text)
      const marker = `[cut here; the rest is in ${file}]`
      return boundedPreview(input.text, marker, MAX_LINES, MAX_BYTES)
    })
    return Service.of({ bound })
  }),
)
// want-end: tool-output-bounds

export const node = makeLocationNode({ service: Service, layer })
