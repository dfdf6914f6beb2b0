export namespace MCP {
  export async function tools(clients: Record<string, any>) {
    const result: Record<string, unknown> = {}
    for (const [clientName, client] of Object.entries(clients)) {
      for (const [toolName, tool] of Object.entries(client.tools())) {
        // want-start: mcp-tool-names sanitized-locals
        const sanitizedClientName = clientName.replace(/\s+/g, "-")
        const sanitizedToolName = toolName.replace(/\s+/g, "-")
        result[sanitizedClientName + "." + sanitizedToolName] = tool
        // want-end: mcp-tool-names
      }
    }
    return result
  }
}
