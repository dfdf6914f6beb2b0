export namespace MessageV2 {
  export function toModelMessages(input: any[], model: any) {
    const result: any[] = []
    for (const msg of input) {
      if (msg.info.role !== "assistant") continue
// want-start: history-replay reasoning-kept
      const differentModel = `${model.providerID}/${model.id}` !== `${msg.info.providerID}/${msg.info.modelID}`
      const parts: any[] = []
      for (const part of msg.parts) {
        if (part.type === "text")
          parts.push({ type: "text", text: part.text, ...(differentModel ? {} : { providerMetadata: part.metadata }) })
        if (part.type === "reasoning")
          parts.push({ type: "reasoning", text: part.text, ...(differentModel ? {} : { providerMetadata: part.metadata }) })
      }
// want-end: history-replay
      result.push({ role: "assistant", parts })
    }
    return result
  }
}
