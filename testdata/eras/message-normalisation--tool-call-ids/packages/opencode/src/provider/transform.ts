import type { ModelMessage } from "ai"

export namespace ProviderTransform {
  // want-start: message-normalisation tool-call-ids
  function normalizeToolCallIds(msgs: ModelMessage[]): ModelMessage[] {
    return msgs.map((msg: any) => {
      if (msg.role === "tool" && Array.isArray(msg.content)) {
        msg.content = msg.content.map((part: any) => ({
          ...part,
          toolCallId: part.toolCallId.replace(/[^a-z]/g, "."),
        }))
      }
      return msg
    })
  }
  // want-end: message-normalisation

  export function message(msgs: ModelMessage[], providerID: string, modelID: string) {
    if (modelID.includes("sonnet")) {
      msgs = normalizeToolCallIds(msgs)
    }
    return msgs
  }
}
