const encodeJson = (value: unknown) => JSON.stringify(value)

// want-start: tool-result-text string-error
export const toolResultText = (part: ToolResultPart) => {
  if (part.result.type === "text" || part.result.type === "error") return String(part.result.value)
  return encodeJson(part.result.value)
}
// want-end: tool-result-text
