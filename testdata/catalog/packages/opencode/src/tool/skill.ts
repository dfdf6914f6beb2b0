import path from "path"
import { Effect } from "effect"
import * as Tool from "./tool"

export const SkillTool = Tool.define(
  "skill",
  Effect.succeed({
    execute: (params: { name: string }) =>
      Effect.gen(function* () {
        const info = yield* find(params.name)
        // want-start: loop-tool-skill skill-content
        const dir = path.dirname(info.location)
        const files = yield* list(dir, { limit: 4 })
        return {
          title: info.name,
          output: [
            `<skill_content name="${info.name}">`,
            info.content,
            `Directory: ${dir}`,
            "<skill_files>",
            files.join("\n"),
            "</skill_files>",
            "</skill_content>",
          ].join("\n"),
          metadata: {},
        }
        // want-end: loop-tool-skill
      }),
  }),
)
