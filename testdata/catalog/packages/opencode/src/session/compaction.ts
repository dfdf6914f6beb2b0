import { Effect, Layer } from "effect"
import { Token } from "@/util/token"
import { MessageV2 } from "./message-v2"
import { buildPrompt } from "@opencode-ai/core/session/compaction"

export const PRUNE_MINIMUM = 5_000
export const PRUNE_PROTECT = 9_000
const TOOL_OUTPUT_MAX_CHARS = 1_500
const PRUNE_PROTECTED_TOOLS = ["skill", "memo"]
const DEFAULT_TAIL_TURNS = 3
const MIN_PRESERVE_RECENT_TOKENS = 1_000
const MAX_PRESERVE_RECENT_TOKENS = 6_000

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const config = yield* Config.Service
    const session = yield* Session.Service
    const agents = yield* Agent.Service
    const plugin = yield* Plugin.Service

// want-start: compaction-prune effect-fn
    const prune = Effect.fn("SessionCompaction.prune")(function* (input: { sessionID: string }) {
      const cfg = yield* config.get()
      if (!cfg.compaction?.prune) return
      const msgs = yield* session.messages({ sessionID: input.sessionID })
      let total = 0
      let pruned = 0
      const toPrune = []
      let turns = 0
      loop: for (let i = msgs.length - 1; i >= 0; i--) {
        const msg = msgs[i]
        if (msg.info.role === "user") turns++
        if (turns < 2) continue
        if (msg.info.role === "assistant" && msg.info.summary) break loop
        for (const part of msg.parts.toReversed()) {
          if (part.type !== "tool" || part.state.status !== "completed") continue
          if (PRUNE_PROTECTED_TOOLS.includes(part.tool)) continue
          if (part.state.time.compacted) break loop
          const estimate = Token.estimate(part.state.output)
          total += estimate
          if (total <= PRUNE_PROTECT) continue
          pruned += estimate
          toPrune.push(part)
        }
      }
      if (pruned > PRUNE_MINIMUM) {
        for (const part of toPrune) {
          part.state.time.compacted = Date.now()
          yield* session.updatePart(part)
        }
      }
    })
// want-end: compaction-prune

// want-start: compaction-request effect-fn
    const processCompaction = Effect.fn("SessionCompaction.process")(function* (input: {
      messages: MessageV2.WithParts[]
      sessionID: string
      auto: boolean
      overflow?: boolean
    }) {
      const replay = input.overflow ? input.messages.findLast((m) => m.info.role === "user") : undefined
      const agent = yield* agents.get("compaction")
      const compacting = yield* plugin.trigger("experimental.session.compacting", {}, { context: [], prompt: undefined })
      const nextPrompt = compacting.prompt ?? buildPrompt({ context: compacting.context })
      const modelMessages = yield* MessageV2.toModelMessagesEffect(input.messages, agent.model, {
        stripMedia: true,
        toolOutputMaxChars: TOOL_OUTPUT_MAX_CHARS,
      })
      const result = yield* session.process({
        agent,
        tools: {},
        system: [],
        messages: [...modelMessages, { role: "user", content: [{ type: "text", text: nextPrompt }] }],
      })
      if (result === "continue" && input.auto && replay) {
        const again = yield* session.updateMessage({ role: "user", tools: replay.info.tools, system: replay.info.system })
        for (const part of replay.parts) yield* session.updatePart({ ...part, messageID: again.id })
        return result
      }
      if (result === "continue" && input.auto) {
        const text =
          (input.overflow ? "Pictures were too big and were dropped; the previous request exceeded the provider's size limit.\n\n" : "") +
          "Continue if you have next steps, otherwise ask."
        yield* session.updatePart({ type: "text", synthetic: true, text })
      }
      return result
    })
// want-end: compaction-request

    return { prune, process: processCompaction, tail: [DEFAULT_TAIL_TURNS, MIN_PRESERVE_RECENT_TOKENS, MAX_PRESERVE_RECENT_TOKENS] }
  }),
)
