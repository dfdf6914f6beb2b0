import { Tool } from "./tool"

export function describe(name: string, limit = 2000): string {
  const header = `<file path="${name}">`
  return [
    header,
    `Showing lines 1-${limit} of ${name}. Use 'offset' to read more.`,
    `${"=".repeat(40)}`,
    "</file>",
  ].join("\n")
}

// A special token's spelling is ordinary text here: <|endoftext|> <|fim_prefix|>
const re = /^\s*(?:\/\/|#)\s+(.*)$/gm
export default { describe, re, n: 0x1f, big: 1_000_000n }
