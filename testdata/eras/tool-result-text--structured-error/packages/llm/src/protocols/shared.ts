const encodeJson = (value: unknown) => JSON.stringify(value)
const isJson = (value: unknown) => value !== undefined

// want-start: tool-result-text structured-error
export const toolResultText = (part: ToolResultPart) => {
  if (part.result.type === "text") return String(part.result.value)
  if (part.result.type === "error") {
    const value = part.result.value
    const plain = typeof value === "object" && value !== null
    return plain && isJson(value) ? encodeJson(value) : String(value)
  }
  return encodeJson(part.result.value)
}
// want-end: tool-result-text
