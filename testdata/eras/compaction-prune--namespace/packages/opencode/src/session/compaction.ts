import { Session } from "./session"
import { Token } from "../util/token"

export namespace SessionCompaction {
  export const PRUNE_MINIMUM = 3_000
  export const PRUNE_PROTECT = 7_000

// want-start: compaction-prune namespace
  export async function prune(input: { sessionID: string }) {
    if (process.env.NO_PRUNE) return
    const msgs = await Session.messages(input.sessionID)
    let total = 0
    let pruned = 0
    const toPrune = []
    let turns = 0
    loop: for (let i = msgs.length - 1; i >= 0; i--) {
      const msg = msgs[i]
      if (msg.info.role === "user") turns++
      if (turns < 2) continue
      if (msg.info.role === "assistant" && msg.info.summary) break loop
      for (const part of msg.parts) {
        if (part.type !== "tool") continue
        if (part.state.time.compacted) break loop
        total += Token.estimate(part.state.output)
        if (total > PRUNE_PROTECT) {
          pruned += Token.estimate(part.state.output)
          toPrune.push(part)
        }
      }
    }
    if (pruned > PRUNE_MINIMUM) {
      for (const part of toPrune) {
        part.state.time.compacted = Date.now()
        await Session.updatePart(part)
      }
    }
  }
// want-end: compaction-prune
}
