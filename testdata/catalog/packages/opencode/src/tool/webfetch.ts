import { Effect } from "effect"
import * as Tool from "./tool"

const MAX_RESPONSE_SIZE = 2 * 1024 * 1024

export const WebFetchTool = Tool.define(
  "webfetch",
  Effect.gen(function* () {
    const client = yield* Client.Service
    return {
      description: "Fetch a page.",
      execute: (params: { url: string; format: string }, ctx: Tool.Context) =>
        Effect.gen(function* () {
          if (!params.url.startsWith("https://")) {
            throw new Error("only https")
          }
          const response = yield* client.get(params.url)
// want-start: loop-tool-webfetch image-attachment
          const contentLength = response.headers["content-length"]
          if (contentLength && Number(contentLength) > MAX_RESPONSE_SIZE) {
            throw new Error("too big")
          }
          const body = yield* response.bytes
          const kind = response.headers["content-type"] || ""
          if (kind.startsWith("image/")) {
            return {
              title: params.url,
              output: "Got an image",
              metadata: {},
              attachments: [{ type: "file" as const, mime: kind, url: toDataUrl(kind, body) }],
            }
          }
          const content = new TextDecoder().decode(body)
          switch (params.format) {
            case "markdown":
              return { output: toMarkdown(content), title: params.url, metadata: {} }
            default:
              return { output: content, title: params.url, metadata: {} }
          }
// want-end: loop-tool-webfetch
        }).pipe(Effect.orDie),
    }
  }),
)
