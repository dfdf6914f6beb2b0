export * as GlobTool from "./glob"

type ModelOutput = { items: ReadonlyArray<{ resource: string }>; truncated: boolean; partial: boolean }

// want-start: tool-result-glob with-notices
export const toModelOutput = (output: ModelOutput) => {
  const lines = output.items.length === 0 ? ["Nothing matched"] : output.items.map((item) => item.resource)
  if (output.truncated) lines.push("", `(Only ${output.items.length} shown.)`)
  if (output.partial) lines.push("", "(Some files were unreadable.)")
  return lines.join("\n")
}
// want-end: tool-result-glob
