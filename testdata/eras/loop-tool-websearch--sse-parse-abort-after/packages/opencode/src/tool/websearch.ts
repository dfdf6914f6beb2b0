import { Tool } from "./tool"
import { abortAfterAny } from "../util/abort"

export const WebSearchTool = Tool.define("websearch", {
  description: "Search the web.",
  async execute(params, ctx) {
    const body = JSON.stringify({ method: "tools/call", query: params.query })

// want-start: loop-tool-websearch sse-parse
    const { signal, clearTimeout } = abortAfterAny(9000, ctx.abort)

    try {
      const response = await fetch("https://search.example/mcp", { method: "POST", body, signal })
      clearTimeout()
      const text = await response.text()
      for (const line of text.split("\n")) {
        if (!line.startsWith("data: ")) continue
        const data = JSON.parse(line.substring(6))
        if (data.result?.content?.length) {
          return { output: data.result.content[0].text, title: params.query, metadata: {} }
        }
      }
      return { output: "Nothing was found.", title: params.query, metadata: {} }
    } catch (error) {
      clearTimeout()
      throw error
    }
// want-end: loop-tool-websearch
  },
})
