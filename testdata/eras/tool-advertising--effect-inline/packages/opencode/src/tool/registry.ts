import { Effect } from "effect"
import { Flag } from "../flag/flag"
import { ProviderID } from "../provider/schema"
import { SpliceTool } from "./splice"
import { ChangeTool } from "./change"
import { LookupTool } from "./lookup"
import type { Tool } from "./tool"

export const layer = Effect.gen(function* () {
  const plugin = yield* Effect.succeed({ trigger: (..._: unknown[]) => Effect.void })
  const all = Effect.fn("ToolRegistry.all")(function* () {
    return [] as Tool.Def[]
  })

  // want-start: tool-advertising effect-inline
  const tools = Effect.fn("ToolRegistry.tools")(function* (input: { providerID: string; modelID: string }) {
    const filtered = (yield* all()).filter((tool) => {
      if (tool.id === LookupTool.id) {
        return input.providerID === ProviderID.house || Flag.OPENCODE_LOOKUP
      }
      const useSplice = input.modelID.includes("wide-") && !input.modelID.includes("lite")
      if (tool.id === SpliceTool.id) return useSplice
      if (tool.id === ChangeTool.id) return !useSplice
      return true
    })
    return yield* Effect.forEach(filtered, (tool) =>
      Effect.gen(function* () {
        const output = { description: tool.description }
        yield* plugin.trigger("tool.definition", { toolID: tool.id }, output)
        return { id: tool.id, description: output.description }
      }),
    )
  })
  // want-end: tool-advertising

  return { all, tools }
})
