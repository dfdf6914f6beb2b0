import { Tool } from "./tool"

export const WebSearchTool = Tool.define("websearch", {
  description: "Search the web.",
  async execute(params) {
    const body = JSON.stringify({ method: "tools/call", query: params.query })
// want-start: loop-tool-websearch sse-parse
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), 9000)

    try {
      const response = await fetch("https://search.example/mcp", { method: "POST", body })
      if (!response.ok) {
        throw new Error(`failed: ${response.status}`)
      }
      const text = await response.text()
      for (const line of text.split("\n")) {
        if (line.startsWith("data: ")) {
          const data = JSON.parse(line.substring(6))
          if (data.result?.content?.length) {
            return { output: data.result.content[0].text, title: params.query, metadata: {} }
          }
        }
      }
      return { output: "Nothing was found.", title: params.query, metadata: {} }
    } catch (error) {
      throw error
    }
// want-end: loop-tool-websearch
  },
})
