export namespace LSP {
  export async function diagnostics() {
    return {}
  }

  export namespace Diagnostic {
    // want-start: loop-lsp-diagnostics pretty-only
    export function pretty(item: Diagnostic) {
      const severityMap = { 1: "E", 2: "W" }
      return `${severityMap[item.severity || 1]} ${item.range.start.line + 1}: ${item.message}`
    }
    // want-end: loop-lsp-diagnostics
  }
}
