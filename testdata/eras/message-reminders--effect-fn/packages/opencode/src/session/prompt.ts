import { Effect } from "effect"
import { Flag } from "../flag/flag"
import { Session } from "./session"

// The text files are left out here: only the function is checked.
import PROMPT_PLAN from "../session/prompt/plan.txt"
import BUILD_SWITCH from "../session/prompt/build-switch.txt"

export const layer = Effect.gen(function* () {
  const sessions = yield* Session.Service
// want-start: message-reminders effect-fn
  const insertReminders = Effect.fn("SessionPrompt.insertReminders")(function* (input: {
    messages: { info: { role: string; agent?: string }; parts: unknown[] }[]
    agent: { name: string }
  }) {
    const userMessage = input.messages.findLast((msg) => msg.info.role === "user")
    if (!userMessage) return input.messages
    if (!Flag.OPENCODE_EXPERIMENTAL_PLAN_MODE) {
      if (input.agent.name === "plan") {
        userMessage.parts.push({ type: "text", text: PROMPT_PLAN, synthetic: true })
      }
      const wasPlan = input.messages.some((msg) => msg.info.role === "assistant" && msg.info.agent === "plan")
      if (wasPlan && input.agent.name === "build") {
        userMessage.parts.push({ type: "text", text: BUILD_SWITCH, synthetic: true })
      }
      return input.messages
    }
    const part = yield* sessions.updatePart({
      type: "text",
      text: `<system-reminder>
Planning only.
</system-reminder>`,
      synthetic: true,
    })
    userMessage.parts.push(part)
    return input.messages
  })
// want-end: message-reminders
  return { insertReminders }
})
