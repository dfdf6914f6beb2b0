import { Effect } from "effect"

// want-start: lowering-openai-chat media-apart
const lowerToolMessages = Effect.fn("OpenAIChat.lowerToolMessages")(function* (message: any) {
  const messages: any[] = []
  const pictures: any[] = []
  for (const part of message.content) {
    if (part.result.type !== "content") {
      messages.push({ role: "tool", tool_call_id: part.id, content: ProviderShared.toolResultText(part) })
      continue
    }
    messages.push({ role: "tool", tool_call_id: part.id, content: "" })
    pictures.push(...part.result.value.filter((item: any) => item.type === "file"))
  }
  return { messages, pictures }
})
// want-end: lowering-openai-chat
