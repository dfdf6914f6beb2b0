import { Token } from "../util/token"

const KEEP = 4_000
// want-start: loop-prompt-texts-summary-template
const SUMMARY_TEMPLATE = `Answer in this outline:
## Aim
## Done
## Next`
// want-end: loop-prompt-texts-summary-template

const estimate = (value: unknown) => Token.estimate(JSON.stringify(value))

// want-start: loop-prompt-texts-buildprompt
export const buildPrompt = (input: { readonly previousSummary?: string; readonly context: readonly string[] }) =>
  [
    input.previousSummary
      ? `Refresh the summary below.\n<previous-summary>\n${input.previousSummary}\n</previous-summary>`
      : "Write a fresh summary.",
    SUMMARY_TEMPLATE,
    ...input.context,
  ].join("\n\n")
// want-end: loop-prompt-texts-buildprompt

export const settings = () => ({ keep: KEEP, estimate })
