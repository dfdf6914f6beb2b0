export function toModelMessages(input: any[], model: any) {
  const result: any[] = []
  for (const msg of input) {
    if (msg.info.role === "user") {
      for (const part of msg.parts) result.push({ type: "text", text: "[not a placeholder here]" })
      const userParts: any[] = []
      for (const part of msg.parts) {
        if (part.type === "text") userParts.push({ type: "text", text: part.text })
// want-start: compaction-view
        if (part.type === "compaction") {
          userParts.push({
            type: "text",
            text: "Summarise the session so far.",
          })
        }
// want-end: compaction-view
      }
    }
    if (msg.info.role === "assistant") {
// want-start: history-replay model-aware
      const differentModel = `${model.providerID}/${model.id}` !== `${msg.info.providerID}/${msg.info.modelID}`
      const hasSignedReasoning = msg.parts.some((part: any) => part.signature)
      const parts: any[] = []
      for (const part of msg.parts) {
        if (part.type === "text") {
          parts.push({
            type: "text",
            text: part.text === "" && hasSignedReasoning ? "_" : part.text,
            ...(differentModel ? {} : { providerMetadata: part.metadata }),
          })
        }
        if (part.type === "tool" && part.state.status === "completed") {
          parts.push({
            type: "tool-result",
            output: part.state.compacted ? "[result removed]" : part.state.output,
            ...(differentModel ? {} : { callProviderMetadata: part.metadata }),
          })
        }
        if (part.type === "reasoning") {
          if (differentModel) {
            if (part.text) parts.push({ type: "text", text: part.text })
            continue
          }
          parts.push({ type: "reasoning", text: part.text, providerMetadata: part.metadata })
        }
      }
// want-end: history-replay
      result.push({ role: "assistant", parts })
    }
  }
  return result
}
