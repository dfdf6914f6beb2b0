export * as BashTool from "./bash"

import { Effect, Layer } from "effect"
import { Tool } from "./tool"

export const name = "bash"

type Output = { output: string; exit?: number; timeout?: boolean; notes?: string[] }

// want-start: tool-result-bash two-parts
const modelOutput = (output: Output) => {
  const notes = output.notes?.length ? `Notes:\n${output.notes.join("\n")}\n\n` : ""
  if (output.timeout) return `${notes}Stopped: the time limit ran out.`
  return `${notes}Finished with status ${output.exit}.`
}

const layer = Layer.effectDiscard(
  Effect.gen(function* () {
    yield* tools.register({
      [name]: Tool.make({
        description: "Run a command.",
        toModelOutput: ({ output }) => [
          { type: "text", text: output.output },
          { type: "text", text: modelOutput(output) },
        ],
        execute: (input) =>
          Effect.gen(function* () {
            const result = yield* run(input.command)
            if (!result) return { output: `Gave up after ${input.limit} ms.`, timeout: true }
            const output = result.text || "(empty)"
            const notice = result.clipped ? "[clipped]" : undefined
            return { exit: result.code, output: notice ? `${output}\n${notice}` : output }
          }),
      }),
    })
  }),
)
// want-end: tool-result-bash
