import { Effect } from "effect"
import { Session } from "./session"

// want-file: reminder-files-prompt-plan packages/opencode/src/session/prompt/plan.txt
import PROMPT_PLAN from "./prompt/plan.txt"
// want-file: reminder-files-build-switch packages/opencode/src/session/prompt/build-switch.txt
import BUILD_SWITCH from "./prompt/build-switch.txt"
// want-file: reminder-files-plan-mode packages/opencode/src/session/prompt/plan-mode.txt
import PLAN_MODE from "./prompt/plan-mode.txt"

// A decoy: a function of another name that pushes text parts.
export const note = Effect.fn("SessionReminders.note")(function* (input: { text: string }) {
  return { type: "text", text: input.text, synthetic: true }
})

// want-start: message-reminders module-apply
export const apply = Effect.fn("SessionReminders.apply")(function* (input: {
  messages: { info: { role: string; agent?: string }; parts: unknown[] }[]
  agent: { name: string }
  flags: { experimentalPlanMode: boolean }
}) {
  const sessions = yield* Session.Service
  const userMessage = input.messages.findLast((msg) => msg.info.role === "user")
  if (!userMessage) return input.messages

  if (!input.flags.experimentalPlanMode) {
    if (input.agent.name === "plan") {
      userMessage.parts.push({ type: "text", text: PROMPT_PLAN, synthetic: true })
    }
    const wasPlan = input.messages.some((msg) => msg.info.role === "assistant" && msg.info.agent === "plan")
    if (wasPlan && input.agent.name === "build") {
      userMessage.parts.push({ type: "text", text: BUILD_SWITCH, synthetic: true })
    }
    return input.messages
  }

  const last = input.messages.findLast((msg) => msg.info.role === "assistant")
  if (input.agent.name === "plan" && last?.info.agent !== "plan") {
    const part = yield* sessions.updatePart({
      type: "text",
      text: PLAN_MODE.replace("${planInfo}", () => "No plan yet."),
      synthetic: true,
    })
    userMessage.parts.push(part)
  }
  return input.messages
})
// want-end: message-reminders
