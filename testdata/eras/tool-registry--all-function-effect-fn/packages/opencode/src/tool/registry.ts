import { Effect } from "effect"
import { AlphaTool } from "./alpha"
import { BetaTool } from "./beta"
import { GammaTool } from "./gamma"
import { Flag } from "../flag/flag"
import type { Tool } from "./tool"

export const layer = Effect.gen(function* () {
  // want-start: tool-registry all-function
  const all = Effect.fn("ToolRegistry.all")(function* (custom: Tool.Info[]) {
    const gamma = Flag.OPENCODE_GAMMA
    return [AlphaTool, ...(gamma ? [GammaTool] : []), BetaTool, ...custom]
  })
  // want-end: tool-registry

  const ids = Effect.fn("ToolRegistry.ids")(function* () {
    return (yield* all([])).map((t) => t.id)
  })

  return { all, ids }
})
