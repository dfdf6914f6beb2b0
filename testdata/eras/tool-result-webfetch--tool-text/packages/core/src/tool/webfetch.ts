export * as WebFetchTool from "./webfetch"

import { Tool, toolText } from "@opencode-ai/llm"

export const name = "webfetch"

const definition = Tool.make({
  description: "Fetch a page.",
// want-start: tool-result-webfetch tool-text
  toModelOutput: ({ output }) => [toolText({ type: "text", text: output.page })],
// want-end: tool-result-webfetch
})
