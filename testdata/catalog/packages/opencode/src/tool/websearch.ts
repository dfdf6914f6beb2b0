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
  }),
)
