const DEFAULT_READ_LIMIT = 400
const MAX_LINE_LENGTH = 250
const MAX_BYTES = 4 * 1024

export const ReadTool = Tool.define("read", {
  async execute(params: { filePath: string; offset?: number }) {
    const target = params.filePath
    const offset = params.offset ?? 1
    const all = (await Bun.file(target).text()).split("\n")
    const raw = all.slice(offset - 1, offset - 1 + DEFAULT_READ_LIMIT).map((l) => l.slice(0, MAX_LINE_LENGTH))
    const cut = raw.join("\n").length > MAX_BYTES

// want-start: tool-result-read content-inline
    const content = raw.map((text, n) => {
      return `${n + offset}| ${text}`
    })

    let output = [`<path>${target}</path>`, `<type>text</type>`, "<content>"].join("\n")
    output += content.join("\n")

    const last = offset + raw.length - 1
    if (cut) {
      output += `\n\n(Stopped at ${MAX_BYTES}; go on after ${last}.)`
    } else if (all.length > last) {
      output += `\n\n(More after ${last}.)`
    } else {
      output += `\n\n(Last line was ${all.length}.)`
    }
    output += "\n</content>"
// want-end: tool-result-read

    return { title: target, output }
  },
})
