const preview = (value: string, mark: "+" | "-") =>
  value.split("\n").slice(0, 3).map((line) => `${mark}${line}`)

// want-start: tool-result-edit
export const toModelOutput = (output: { file: string; count: number }, before: string, after: string) =>
  [
    `Changed ${output.file}`,
    `Occurrences: ${output.count}`,
    "~~~diff",
    ...preview(before, "-"),
    ...preview(after, "+"),
    "~~~",
  ].join("\n")
// want-end: tool-result-edit
