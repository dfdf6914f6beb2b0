import { Effect } from "effect"
import * as Tool from "./tool"
// want-file: tool-descriptions-read-txt packages/opencode/src/tool/read.txt
import DESCRIPTION from "./read.txt"

const DEFAULT_READ_LIMIT = 500
const MAX_LINE_LENGTH = 300
const MAX_BYTES = 8 * 1024
const MAX_BYTES_LABEL = `${MAX_BYTES / 1024} KiB`

export const ReadTool = Tool.define(
  "read",
  Effect.gen(function* () {
    const run = Effect.fn("ReadTool.execute")(function* (params: any) {
      const target = params.filePath
      const file = yield* lines(target, { limit: params.limit ?? DEFAULT_READ_LIMIT })
// want-start: tool-result-read content-block
      let output = [`<path>${target}</path>`, `<type>text</type>`, "<content>\n"].join("\n")
      output += file.raw.map((text: string, n: number) => `${n + file.start}| ${text}`).join("\n")
      if (file.cut) {
        output += `\n\n(Stopped at ${MAX_BYTES_LABEL}; continue at ${file.next}.)`
      } else if (file.more) {
        output += `\n\n(More lines follow; continue at ${file.next}.)`
      } else {
        output += `\n\n(That was the last line, ${file.count} in all.)`
      }
      output += "\n</content>"
// want-end: tool-result-read
      return { title: target, output }
    })
    return { execute: run }
  }),
)
