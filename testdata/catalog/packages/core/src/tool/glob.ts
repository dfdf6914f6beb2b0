type ModelOutput = ReadonlyArray<{ path: string }>

// want-start: tool-result-glob paths
export const toModelOutput = (output: ModelOutput) => {
  const lines = output.length === 0 ? ["Nothing matched"] : output.map((item) => item.path)
  return lines.join("\n")
}
// want-end: tool-result-glob
