import { Effect } from "effect"
import * as Tool from "./tool"
// want-file: tool-descriptions-websearch-txt packages/opencode/src/tool/websearch.txt
import DESCRIPTION from "./websearch.txt"

export const SearchTool = Tool.define(
  "search",
  Effect.succeed({
    get description() {
      return DESCRIPTION.replace("{{year}}", "2026")
    },
    execute: (params: { query: string }) =>
      Effect.gen(function* () {
        yield* Effect.log(params.query)
// want-start: loop-tool-websearch mcp-call
        const result = yield* askService(params.query)
        return {
          output: result ?? "The service found nothing.",
          title: params.query,
          metadata: {},
        }
// want-end: loop-tool-websearch
      }),
  }),
)
