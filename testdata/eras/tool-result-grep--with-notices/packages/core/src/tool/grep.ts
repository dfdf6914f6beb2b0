export * as GrepTool from "./grep"

type Hit = { resource: string; line: number; lines: string; cut: boolean }
type Success = { items: ReadonlyArray<Hit>; truncated: boolean; partial: boolean }

// want-start: tool-result-grep with-notices
export const toModelOutput = (output: Success) => {
  const lines = output.items.length === 0 ? ["Nothing matched"] : [`${output.items.length} hits`]
  for (const hit of output.items) {
    lines.push(`${hit.resource}#${hit.line} ${hit.lines}${hit.cut ? "~" : ""}`)
  }
  if (output.truncated) {
    lines.push("", `(Only ${output.items.length} shown.)`)
  }
  if (output.partial) lines.push("", "(Some paths were skipped.)")
  return lines.join("\n")
}
// want-end: tool-result-grep
