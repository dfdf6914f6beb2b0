import { Effect, Layer } from "effect"

const IMAGE_TYPES = new Set(["image/png"])

const layer = Layer.effectDiscard(
  Effect.gen(function* () {
    yield* tools.register({
      read: Tool.make({
        description: "Read a file.",
// want-start: tool-result-read-image
        toModelOutput: ({ input, output }) => {
          if (output.encoding !== "base64" || !IMAGE_TYPES.has(output.mime)) return []
          return [
            { type: "text", text: "Picture attached" },
            { type: "file", data: output.content, mime: output.mime },
          ]
        },
// want-end: tool-result-read-image
        execute: () => Effect.succeed({}),
      }),
    })
  }),
)
