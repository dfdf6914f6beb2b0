import { Effect, Layer } from "effect"

const layer = Layer.effectDiscard(
  Effect.gen(function* () {
    yield* tools.register({
      webfetch: Tool.make({
// want-start: tool-result-webfetch part
        toModelOutput: ({ output }) => [{ type: "text", text: output.body }],
// want-end: tool-result-webfetch
      }),
    })
  }),
)
