const DEFAULT_READ_LIMIT = 400
const MAX_LINE_LENGTH = 250

export const ReadTool = Tool.define("read", {
  async execute(params: { filePath: string; offset?: number }) {
    const offset = params.offset || 0
    const all = (await Bun.file(params.filePath).text()).split("\n")
    const raw = all.slice(offset, offset + DEFAULT_READ_LIMIT).map((l) => l.slice(0, MAX_LINE_LENGTH))

// want-start: tool-result-read file-tag
    const content = raw.map((text, n) => {
      return `${(n + offset + 1).toString().padStart(4, " ")}: ${text}`
    })

    let output = "<file>\n"
    output += content.join("\n")

    if (all.length > offset + content.length) {
      output += `\n\n(More after ${offset + content.length}.)`
    }
    output += "\n</file>"
// want-end: tool-result-read

    return { title: params.filePath, output }
  },
})
