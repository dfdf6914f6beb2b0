import { Flag } from "../flag/flag"
import { Plugin } from "../plugin"
import type { Agent } from "../agent/agent"
import type { Tool } from "./tool"

export namespace ToolRegistry {
  const listed: Tool.Info[] = []

  // want-start: tool-advertising namespace-filter
  export async function tools(
    model: {
      providerID: string
      modelID: string
    },
    agent?: Agent.Info,
  ) {
    const tools = listed.slice()
    const result = await Promise.all(
      tools
        .filter((t) => {
          if (t.id === "lookup") {
            return model.providerID === "house" || Flag.OPENCODE_LOOKUP
          }

          const useSplice = model.modelID.includes("wide-") && !model.modelID.includes("lite")
          if (t.id === "splice") return useSplice
          if (t.id === "change") return !useSplice

          return true
        })
        .map(async (t) => {
          const ready = await t.init({ agent })
          const output = { description: ready.description, parameters: ready.parameters }
          await Plugin.trigger("tool.definition", { toolID: t.id }, output)
          return { id: t.id, ...ready, description: output.description }
        }),
    )
    return result
  }
  // want-end: tool-advertising
}
