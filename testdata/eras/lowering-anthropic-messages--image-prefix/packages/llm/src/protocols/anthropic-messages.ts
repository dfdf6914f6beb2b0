import { Effect } from "effect"

// want-start: lowering-anthropic-messages image-prefix
const lowerToolResultContentItem = Effect.fn("AnthropicMessages.lowerToolResultContentItem")(function* (item: any) {
  if (item.type === "text") return { type: "text" as const, text: item.text } satisfies TextBlock
  if (item.mediaType.startsWith("image/"))
    return {
      type: "image" as const,
      source: { type: "base64" as const, media_type: item.mediaType, data: item.data },
    } satisfies ImageBlock
  return yield* Effect.fail(`only images, got ${item.mediaType}`)
})

const lowerToolResultContent = Effect.fn("AnthropicMessages.lowerToolResultContent")(function* (part: any) {
  if (part.result.type !== "content") return ProviderShared.toolResultText(part)
  return yield* Effect.forEach(part.result.value, lowerToolResultContentItem)
})
// want-end: lowering-anthropic-messages
