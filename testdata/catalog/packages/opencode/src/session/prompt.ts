import { Effect } from "effect"
import { MAX_STEPS_PROMPT } from "@opencode-ai/core/session/runner/max-steps"

export const layer = Effect.gen(function* () {
  const agents = yield* Agent.Service
  const provider = yield* Provider.Service
  const llm = yield* LLM.Service
  const sessions = yield* Session.Service

// want-start: title-generation effect-fn
  const title = Effect.fn("SessionPrompt.ensureTitle")(function* (input: {
    session: { id: string; parentID?: string; title: string }
    history: { info: { role: string }; parts: { type: string; synthetic?: boolean }[] }[]
    providerID: string
    modelID: string
  }) {
    if (input.session.parentID) return
    if (!input.session.title.startsWith("New session")) return
    const idx = input.history.findIndex((m) => m.info.role === "user")
    if (idx === -1) return
    const context = input.history.slice(0, idx + 1)
    const ag = yield* agents.get("title")
    if (!ag) return
    const mdl = ag.model
      ? yield* provider.getModel(ag.model.providerID, ag.model.modelID)
      : ((yield* provider.getSmallModel(input.providerID)) ?? (yield* provider.getModel(input.providerID, input.modelID)))
    const msgs = yield* MessageV2.toModelMessagesEffect(context, mdl)
    const text = yield* llm.stream({
      agent: ag,
      system: [],
      small: true,
      tools: {},
      model: mdl,
      messages: [{ role: "user", content: "Name this chat:\n" }, ...msgs],
    })
    const cleaned = text.split("\n").find((line) => line.trim().length > 0)
    if (!cleaned) return
    const t = cleaned.length > 60 ? cleaned.substring(0, 57) + "..." : cleaned
    yield* sessions.setTitle({ sessionID: input.session.id, title: t })
  })
// want-end: title-generation
  return { title }
})

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
