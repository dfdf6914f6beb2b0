import { streamText } from "ai"

export function send(prepared: { tools: Record<string, any> }) {
  return streamText({
    // want-start: tool-call-repair
    async experimental_repairToolCall(failed: any) {
      const upper = failed.toolCall.toolName.toUpperCase()
      if (upper !== failed.toolCall.toolName && prepared.tools[upper]) {
        return { ...failed.toolCall, toolName: upper }
      }
      return {
        ...failed.toolCall,
        input: JSON.stringify({ name: failed.toolCall.toolName, reason: failed.error.message }),
        toolName: "broken",
      }
    },
    // want-end: tool-call-repair
    activeTools: Object.keys(prepared.tools).filter((x) => x !== "broken"),
    tools: prepared.tools,
  } as any)
}
