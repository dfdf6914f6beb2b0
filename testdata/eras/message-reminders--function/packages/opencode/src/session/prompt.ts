import PROMPT_PLAN from "../session/prompt/plan.txt"
import BUILD_SWITCH from "../session/prompt/build-switch.txt"

export namespace SessionPrompt {
  export function loop(messages: { info: { role: string; mode?: string }; parts: unknown[] }[]) {
    return insertReminders({ messages, agent: { name: "plan" } })
  }

// want-start: message-reminders function
  function insertReminders(input: { messages: { info: { role: string; mode?: string }; parts: unknown[] }[]; agent: { name: string } }) {
    const userMessage = input.messages.findLast((msg) => msg.info.role === "user")
    if (!userMessage) return input.messages
    if (input.agent.name === "plan") {
      userMessage.parts.push({ type: "text", text: PROMPT_PLAN, synthetic: true })
    }
    const wasPlan = input.messages.some((msg) => msg.info.role === "assistant" && msg.info.mode === "plan")
    if (wasPlan && input.agent.name === "build") {
      userMessage.parts.push({ type: "text", text: BUILD_SWITCH, synthetic: true })
    }
    return input.messages
  }
// want-end: message-reminders
}
