import { tool, jsonSchema } from "ai"

const MCP_RESOURCE_TOOLS = {
  list: "show_resources",
  read: "open_resource",
} as const

export function resolve(input: any, clients: any[]) {
  const tools: Record<string, any> = {}
  const hasMcpResourceServer = clients.some((client) => client.resources)
  // want-start: mcp-resource-tools
  if (hasMcpResourceServer) {
    tools[MCP_RESOURCE_TOOLS.list] = tool({
      description: "Shows what the servers offer.",
      inputSchema: jsonSchema({ type: "object", properties: { host: { type: "string" } } }),
      execute: async (args: any) => input.ask({ patterns: [`mcp:${args.host}:any`] }),
    })
    tools[MCP_RESOURCE_TOOLS.read] = tool({
      description: "Opens one resource.",
      inputSchema: jsonSchema({ type: "object", properties: { host: { type: "string" }, path: { type: "string" } } }),
      execute: async (args: any) => input.ask({ patterns: [`mcp:${args.host}:${args.path}`] }),
    })
  }
  // want-end: mcp-resource-tools
  return tools
}
