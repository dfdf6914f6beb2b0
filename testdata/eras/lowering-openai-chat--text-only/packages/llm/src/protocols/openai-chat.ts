import { Effect } from "effect"

// want-start: lowering-openai-chat text-only
const lowerToolMessages = Effect.fn("OpenAIChat.lowerToolMessages")(function* (message: any) {
  const messages: any[] = []
  for (const part of message.content) {
    if (part.type !== "tool-result") return yield* Effect.fail("only tool results")
    messages.push({ role: "tool", tool_call_id: part.id, content: ProviderShared.toolResultText(part) })
  }
  return messages
})
// want-end: lowering-openai-chat
