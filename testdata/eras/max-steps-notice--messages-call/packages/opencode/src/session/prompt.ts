import MAX_STEPS from "./prompt/max-steps.txt"
import { SessionProcessor } from "./processor"

export namespace SessionPrompt {
  export async function loop(input: { agent: { maxSteps?: number }; history: unknown[] }) {
    let step = 0
    while (true) {
      step++
      const maxSteps = input.agent.maxSteps ?? Infinity
      const isLastStep = step >= maxSteps
      const processor = SessionProcessor.create({ step })
// want-start: max-steps-notice messages-call
      const messages = [
        ...input.history,
        ...(isLastStep ? [{ role: "assistant" as const, content: MAX_STEPS }] : []),
      ]
// want-end: max-steps-notice
      const result = await processor.process({
        messages,
        toolChoice: isLastStep ? "none" : undefined,
      })
      if (result === "stop") break
    }
  }
}
