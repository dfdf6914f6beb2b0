export function toModelMessages(input: any[], model: any) {
  const result: any[] = []
  for (const msg of input) {
    if (msg.info.role === "assistant") {
// want-start: history-replay reasoning-as-text
      const differentModel = `${model.providerID}/${model.id}` !== `${msg.info.providerID}/${msg.info.modelID}`
      const parts: any[] = []
      for (const part of msg.parts) {
        if (part.type === "text")
          parts.push({ type: "text", text: part.text, ...(differentModel ? {} : { providerMetadata: part.metadata }) })
        if (part.type === "tool" && part.state.status === "running")
          parts.push({ type: "tool-error", errorText: "[stopped]", ...(differentModel ? {} : { callProviderMetadata: part.metadata }) })
        if (part.type === "reasoning") {
          if (differentModel) {
            if (part.text.trim()) parts.push({ type: "text", text: part.text })
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
