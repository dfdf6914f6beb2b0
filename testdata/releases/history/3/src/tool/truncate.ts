// Tool output is cut before it reaches the model.

export function limit(output: string) {
  const max = 1000
  const lines = output.split("\n")
  if (lines.length <= max) return output
  const kept = lines.slice(0, max)
  kept.push("")
  kept.push("[output truncated]")
  return kept.join("\n")
}
