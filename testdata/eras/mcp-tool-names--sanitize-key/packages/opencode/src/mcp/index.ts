const sanitize = (s: string) => s.replace(/[^a-z]/g, "-")

export async function tools(clients: Record<string, any>) {
  const result: Record<string, unknown> = {}
  for (const [clientName, client] of Object.entries(clients)) {
    for (const mcpTool of client.list()) {
      // want-start: mcp-tool-names sanitize-key
      result[sanitize(clientName) + "." + sanitize(mcpTool.name)] = mcpTool
      // want-end: mcp-tool-names
    }
  }
  return result
}
