import type { Agent } from "../agent/agent"
import type { Tool } from "./tool"

export namespace ToolRegistry {
  const listed: Tool.Info[] = []

  export async function tools(_providerID: string, _modelID: string) {
    return Promise.all(listed.map(async (t) => ({ id: t.id, ...(await t.init()) })))
  }

  // want-start: tool-advertising namespace-enabled
  export async function enabled(
    _providerID: string,
    _modelID: string,
    agent: Agent.Info,
  ): Promise<Record<string, boolean>> {
    const result: Record<string, boolean> = {}
    result["splice"] = false

    if (agent.permission.change === "deny") {
      result["change"] = false
    }
    if (agent.permission.lookup === "deny") {
      result["lookup"] = false
    }

    return result
  }
  // want-end: tool-advertising
}
