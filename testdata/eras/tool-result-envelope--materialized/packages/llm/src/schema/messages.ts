export const ToolResultPart = Object.assign(
  Schema.Struct({ type: Schema.Literal("tool-result") }),
  {
// want-start: tool-result-envelope materialized
    toResultValue: (output: ToolOutput): ToolResultValue => {
      if (output.content.length === 0) return { type: "json", value: output.structured }
      if (output.content.length === 1 && output.content[0]?.type === "text")
        return { type: "text", value: output.content[0].text }
      const unsupported = output.content.find((entry) => entry.type === "file" && entry.source.type !== "data")
      if (unsupported?.type === "file") return { type: "error", value: "not inline" }
      return {
        type: "content",
        value: output.content.map((entry) => (entry.type === "text" ? { type: "text", text: entry.text } : entry)),
      }
    },
// want-end: tool-result-envelope
  },
)
