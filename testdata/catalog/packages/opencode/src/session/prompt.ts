import { Effect } from "effect"
import { MAX_STEPS_PROMPT } from "@opencode-ai/core/session/runner/max-steps"

export const runLoop = Effect.fn("SessionPrompt.run")(function* (input: {
  agent: { steps?: number }
  handle: { process: (x: unknown) => Effect.Effect<string> }
  history: unknown[]
}) {
  let step = 0
  while (true) {
    step++
    const maxSteps = input.agent.steps ?? Infinity
    const isLastStep = step >= maxSteps
    const modelMsgs = input.history
    const format = { type: "text" as string }
    // A decoy: another call that takes messages, with no last-step notice.
    yield* input.handle.process({ messages: [...modelMsgs] })
// want-start: max-steps-notice
    const result = yield* input.handle.process({
      messages: [
        ...modelMsgs,
        ...(isLastStep ? [{ role: "assistant" as const, content: MAX_STEPS_PROMPT }] : []),
      ],
      toolChoice: format.type === "json_schema" ? "required" : undefined,
    })
// want-end: max-steps-notice
    if (result === "stop") break
  }
})
