// want-start: mcp-tool-names tool-name-helper
export const sanitize = (value: string) => value.replace(/[^a-z]/g, "-")

export const toolName = (clientName: string, name: string) => sanitize(clientName) + "__" + sanitize(name)
// want-end: mcp-tool-names
