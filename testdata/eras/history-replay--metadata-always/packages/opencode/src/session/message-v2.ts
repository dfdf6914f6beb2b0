export namespace MessageV2 {
  export function filterCompacted(msgs: any[]) {
    return msgs
  }

// want-start: history-replay metadata-always
  export function toModelMessage(input: any[]): any[] {
    const out: any[] = []
    for (const msg of input) {
      if (msg.info.role !== "assistant") continue
      const parts: any[] = []
      for (const part of msg.parts) {
        if (part.type === "text") parts.push({ type: "text", text: part.text, providerMetadata: part.metadata })
        if (part.type === "tool" && part.state.status === "completed")
          parts.push({
            type: "tool-" + part.tool,
            output: part.state.time.compacted ? "[result gone]" : part.state.output,
            callProviderMetadata: part.metadata,
          })
        if (part.type === "reasoning")
          parts.push({ type: "reasoning", text: part.text, providerMetadata: part.metadata })
      }
      out.push({ role: "assistant", parts })
    }
    return out
  }
// want-end: history-replay
}
