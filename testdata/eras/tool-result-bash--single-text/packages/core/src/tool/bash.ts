export * as BashTool from "./bash"

export const name = "bash"

type Result = { output: string; exitCode?: number; timedOut?: boolean; warnings?: string[] }

const joinStreams = (out: string, err: string) => (err ? `${out}\nerr:\n${err}` : out) || "(empty)"

// want-start: tool-result-bash single-text
const modelOutput = (output: Result) => {
  const warnings = output.warnings?.length ? `\n\nHeads up:\n${output.warnings.join("\n")}` : ""
  if (output.timedOut) return `${output.output}${warnings}\n\nStopped: out of time.`
  return `${output.output}${warnings}\n\nStatus ${output.exitCode}.`
}
// want-end: tool-result-bash

export const describe = (output: Result) => modelOutput(output)
