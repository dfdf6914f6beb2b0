import { Effect } from "effect"

const lowerMessages = Effect.fn("Gemini.lowerMessages")(function* (request: any) {
  const contents: any[] = []
  for (const message of request.messages) {
    const parts: any[] = []
// want-start: lowering-gemini text-only
    for (const part of message.content) {
      if (part.type !== "tool-result") return yield* Effect.fail("only tool results")
      parts.push({
        functionResponse: { name: part.name, response: { name: part.name, content: ProviderShared.toolResultText(part) } },
      })
    }
// want-end: lowering-gemini
    contents.push({ role: "user", parts })
  }
  return contents
})
