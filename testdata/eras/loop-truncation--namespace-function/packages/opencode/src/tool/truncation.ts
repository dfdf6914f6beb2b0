export namespace Truncate {
  export const MAX_LINES = 10
  export const MAX_BYTES = 1024

  function delegate(agent?: { task: boolean }) {
    return agent?.task === true
  }

  // want-start: loop-truncation namespace-function
  export async function output(text: string, options: { maxLines?: number } = {}, agent?: { task: boolean }) {
    const maxLines = options.maxLines ?? MAX_LINES
    const lines = text.split("\n")
    if (lines.length <= maxLines) return { content: text, truncated: false }
    const filepath = await save(text)
    const hint = delegate(agent) ? `In ${filepath}; delegate.` : `In ${filepath}; search it.`
    return { content: `${lines.slice(0, maxLines).join("\n")}\n\n...cut, truncated...\n\n${hint}`, truncated: true }
  }
  // want-end: loop-truncation
}
