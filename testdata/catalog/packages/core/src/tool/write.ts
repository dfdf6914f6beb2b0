import { Effect, Layer } from "effect"

export type Output = { resource: string; existed: boolean }

// want-start: tool-result-write
export const toModelOutput = (output: Output) =>
  `${output.existed ? "Replaced" : "Made"} ${output.resource}.`
// want-end: tool-result-write

const layer = Layer.effectDiscard(
  Effect.gen(function* () {
    yield* tools.register({
      write: Tool.make({ toModelOutput: ({ output }) => [{ type: "text", text: toModelOutput(output) }] }),
    })
  }),
)
