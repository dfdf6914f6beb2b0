import { Effect } from "effect"

const lowerMessages = Effect.fn("Gemini.lowerMessages")(function* (request: any) {
  const contents: any[] = []
  for (const message of request.messages) {
    if (message.role === "assistant") {
      const parts: any[] = []
      for (const part of message.content) parts.push({ text: part.text })
      contents.push({ role: "model", parts })
      continue
    }
    const parts: any[] = []
// want-start: lowering-gemini inline-media
    for (const part of message.content) {
      if (part.result.type !== "content") {
        parts.push({ functionResponse: { name: part.name, response: { name: part.name, content: ProviderShared.toolResultText(part) } } })
        continue
      }
      parts.push({ functionResponse: { name: part.name, response: { name: part.name, content: part.result.text } } })
      for (const item of part.result.value) {
        parts.push({ inlineData: { mimeType: item.mime, data: item.data } })
      }
    }
// want-end: lowering-gemini
    contents.push({ role: "user", parts })
  }
  return contents
})
