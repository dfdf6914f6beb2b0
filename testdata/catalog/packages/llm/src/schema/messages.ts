export const ToolResultPart = Object.assign(
  Schema.Struct({ type: Schema.Literal("tool-result") }),
  {
// want-start: tool-result-envelope content-as-is
    toResultValue: (output: ToolOutput): ToolResultValue => {
      if (output.content.length === 0) return { type: "json", value: output.structured }
      if (output.content.length === 1 && output.content[0]?.type === "text") {
        return { type: "text", value: output.content[0].text }
      }
      return {
        type: "content",
        value: output.content.map((item) => {
          return { type: "part", item }
        }),
      }
    },
// want-end: tool-result-envelope
  },
)
