type ModelOutput = ReadonlyArray<{ path: string; line: number; text: string }>

// want-start: tool-result-grep grouped
export const toModelOutput = (output: ModelOutput) => {
  const lines = output.length === 0 ? ["Nothing matched"] : [`${output.length} hits`]
  for (const match of output) {
    lines.push(`${match.path}#${match.line} ${match.text}`)
  }
  return lines.join("\n")
}
// want-end: tool-result-grep
