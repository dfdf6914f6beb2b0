import { Effect } from "effect"

// want-start: lowering-anthropic-messages validated-file
const lowerToolResultContentItem = Effect.fn("AnthropicMessages.lowerToolResultContentItem")(function* (item: any) {
  if (item.type === "text") return { type: "text" as const, text: item.text } satisfies TextBlock
  return {
    type: "image" as const,
    source: { type: "base64" as const, media_type: item.mime, data: item.data },
  } satisfies ImageBlock
})

const lowerToolResultContent = Effect.fn("AnthropicMessages.lowerToolResultContent")(function* (part: any) {
  if (part.result.type !== "content") return ProviderShared.toolResultText(part)
  return yield* Effect.forEach(part.result.value, lowerToolResultContentItem)
})
// want-end: lowering-anthropic-messages
