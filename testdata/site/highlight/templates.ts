// Synthetic TypeScript shaped like a tool's model-output code: every kind
// of template literal, escape and regular expression the highlighter must
// read as valid code.
import type { Part } from "./part"

const MAX_LINES = 2000
const MAX_BYTES = 50 * 1024

export function modelOutput(input: { stdout: string; exit: number | null }, meta: Record<string, string | undefined>) {
  const lines = input.stdout.split(/\r?\n/u)
  const cleaned = input.stdout.replace(/^(?:\.[\\/])+/u, "").replace(/\s+$/gm, "")
  const sticky = /[a-z]+/dgimsy
  const ratio = lines.length / MAX_LINES
  const half = MAX_BYTES
    / 2
  let output = `<stdout>\n${cleaned}\n</stdout>`
  output += `\n\nExit code: ${input.exit ?? "none"}\n`
  output += `Literal backtick: \` and dollar: \${not} and backslash: \\ and tab:\t.`
  output += `Unicode: \u00e9 \u{1F600} hex: \x41 line\
continued`
  output += `${lines.map((line, i) => `${i + 1}\t${line.replace(/`/g, "\\`")}`).join("\n")}`
  output += `nested ${`inner ${`innermost \n ${meta["a"] ?? `x\ty`}`}`} done`
  const generic = new Map<string, Array<Part | undefined>>()
  const kind: "model" | "provider" = ratio > 1 ? "model" : "provider"
  const path = "C:\\Users\\x" + 'single \' quote' + "double \" quote"
  return {
    title: `${lines.length} lines`,
    output: output.length > half ? output.slice(0, half) + `\n…truncated` : output,
    metadata: { kind, sticky: sticky.source, size: generic.size, path },
  }
}
