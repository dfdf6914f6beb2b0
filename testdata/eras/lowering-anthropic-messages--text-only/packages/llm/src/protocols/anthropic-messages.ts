import { Effect } from "effect"

const lowerMessages = Effect.fn("AnthropicMessages.lowerMessages")(function* (request: any) {
  const messages: any[] = []
  for (const message of request.messages) {
    if (message.role === "user") {
      messages.push({ role: "user", content: message.content })
      continue
    }
    const content: any[] = []
// want-start: lowering-anthropic-messages text-only
    for (const part of message.content) {
      if (part.type !== "tool-result") return yield* Effect.fail("only tool results")
      content.push({
        type: "tool_result",
        tool_use_id: part.id,
        content: ProviderShared.toolResultText(part),
        is_error: part.result.type === "error" ? true : undefined,
      })
    }
// want-end: lowering-anthropic-messages
    messages.push({ role: "user", content })
  }
  return messages
})
