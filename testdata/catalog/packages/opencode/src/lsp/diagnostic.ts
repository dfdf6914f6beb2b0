import * as LSPClient from "./client"

// want-start: loop-lsp-diagnostics report
const MAX_PER_FILE = 5

export function pretty(item: LSPClient.Diagnostic) {
  const severityMap = { 1: "E", 2: "W" }
  return `${severityMap[item.severity || 1]} ${item.range.start.line + 1}: ${item.message}`
}

export function report(file: string, issues: LSPClient.Diagnostic[]) {
  const errors = issues.filter((item) => item.severity === 1)
  if (errors.length === 0) return ""
  return `<diagnostics file="${file}">\n${errors.slice(0, MAX_PER_FILE).map(pretty).join("\n")}\n</diagnostics>`
}
// want-end: loop-lsp-diagnostics
