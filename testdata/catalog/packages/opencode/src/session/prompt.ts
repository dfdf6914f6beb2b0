import { Effect } from "effect"

const STRUCTURED_OUTPUT_SYSTEM_PROMPT = `Answer with the Shape tool only.`
const STRUCTURED_OUTPUT_DESCRIPTION = "Give the answer here."

export const loop = Effect.fn("SessionPrompt.loop")(function* (input: any) {
  // want-start: system-text-order system-array
  const [skills, env, rules] = yield* Effect.all([input.skills(), input.env(), input.rules()])
  const system = [...rules, ...env, ...(skills ? [skills] : [])]
  const format = input.format ?? { type: "text" as const }
  if (format.type === "json_schema") system.push(STRUCTURED_OUTPUT_SYSTEM_PROMPT)
  // want-end: system-text-order
  const tools: Record<string, unknown> = {}
  if (format.type === "json_schema") tools["Shape"] = createStructuredOutputTool({ schema: input.schema })
  return yield* input.process({ system, tools, toolChoice: format.type === "json_schema" ? "required" : "auto" })
})

// want-start: structured-output
export function createStructuredOutputTool(input: { schema: Record<string, any> }) {
  const { $schema: _, ...inputSchema } = input.schema
  return {
    description: STRUCTURED_OUTPUT_DESCRIPTION,
    inputSchema,
    execute: async () => ({ output: "Got it.", title: "Shape" }),
  }
}
// want-end: structured-output

export const createUserMessage = Effect.fn("SessionPrompt.createUserMessage")(function* (input: any) {
  // want-start: user-input-parts resolve-user-part
  const resolvePart = Effect.fn("SessionPrompt.resolveUserPart")(function* (part: any) {
    if (part.type === "file") {
      return [
        { type: "text", synthetic: true, text: `Looked at ${part.filename}` },
        { type: "text", synthetic: true, text: yield* input.read(part.filename) },
        part,
      ]
    }
    return [part]
  })
  // want-end: user-input-parts
  return yield* Effect.forEach(input.parts, resolvePart)
})

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
    const outcome: "break" | "continue" = yield* Effect.gen(function* () {
// want-start: max-steps-notice step-block
      const result = yield* input.handle.process({
        messages: [
          ...modelMsgs,
          ...(isLastStep ? [{ role: "assistant" as const, content: MAX_STEPS_PROMPT }] : []),
        ],
        toolChoice: format.type === "json_schema" ? "required" : undefined,
      })
// want-end: max-steps-notice
      if (result === "stop") return "break" as const
      return "continue" as const
    }).pipe(Effect.ensuring(Effect.void))
    if (outcome === "break") break
  }
})

export const steer = Effect.fn("SessionPrompt.steer")(function* (input: {
  sessionID: string
  read: (id: string) => Effect.Effect<{ info: { id: string; role: string }; parts: any[] }[]>
  send: (x: unknown) => Effect.Effect<void>
}) {
  let step = 0
  while (true) {
    step++
    const msgs = yield* input.read(input.sessionID)
    const lastFinished = msgs.findLast((m) => m.info.role === "assistant")?.info
    // A decoy: the same walk without the wrapper.
    for (const m of msgs) {
      for (const p of m.parts) if (p.type === "text") p.seen = true
    }
// want-start: queued-user-text effect
    if (step > 1 && lastFinished) {
      for (const m of msgs) {
        if (m.info.role !== "user" || m.info.id <= lastFinished.id) continue
        for (const p of m.parts) {
          if (p.type !== "text" || p.ignored || p.synthetic) continue
          if (!p.text.trim()) continue
          p.text = ["<note>", "The user sent the following message:", p.text, "", "Handle it, then carry on.", "</note>"].join("\n")
        }
      }
    }
// want-end: queued-user-text
    yield* input.send({ messages: msgs })
    if (step > 3) break
  }
})
