import { Tool } from "./tool"

const MAX_RESPONSE_SIZE = 2 * 1024 * 1024

export const WebFetchTool = Tool.define("webfetch", {
  description: "Fetch a page.",
  async execute(params) {
    const response = await fetch(params.url)
    if (!response.ok) {
      throw new Error(`status ${response.status}`)
    }
// want-start: loop-tool-webfetch text-only
    const contentLength = response.headers.get("content-length")
    if (contentLength && Number(contentLength) > MAX_RESPONSE_SIZE) {
      throw new Error("too big")
    }
    const content = await response.text()
    switch (params.format) {
      case "text":
        return { output: stripTags(content), title: params.url, metadata: {} }
      default:
        return { output: content, title: params.url, metadata: {} }
    }
// want-end: loop-tool-webfetch
  },
})
