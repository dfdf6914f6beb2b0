import path from "path"
import { Tool } from "./tool"
import { Finder } from "../file/finder"

export const GlobTool = Tool.define("glob", {
  description: "Find files by pattern.",
  async execute(params) {
    const root = params.path ?? process.cwd()
// want-start: loop-tool-glob mtime-sorted
    const limit = 25
    const files = []
    let truncated = false
    for await (const name of Finder.walk(root, params.pattern)) {
      if (files.length >= limit) {
        truncated = true
        break
      }
      files.push({ path: path.join(root, name), mtime: await Finder.mtime(name) })
    }
    files.sort((a, b) => b.mtime - a.mtime)

    const output = []
    if (files.length === 0) output.push("Nothing matched")
    if (files.length > 0) {
      output.push(...files.map((f) => f.path))
      if (truncated) {
        output.push("")
        output.push("(Only some files are listed.)")
      }
    }

    return {
      title: root,
      metadata: { count: files.length, truncated },
      output: output.join("\n"),
    }
// want-end: loop-tool-glob
  },
})
