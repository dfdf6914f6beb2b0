import { Effect } from "effect"
import { jsonSchema, tool as aiTool } from "ai"
import { SystemPrompt } from "../system"

const mergeOptions = (target: Record<string, any>, source: Record<string, any> | undefined) => ({
  ...target,
  ...(source ?? {}),
})

// want-start: request-preparation prepare
export const prepare = Effect.fn("LLMRequestPrep.prepare")(function* (input: any) {
  const system = [input.agent.prompt ?? SystemPrompt.provider(input.model)].join("\n")
  yield* input.plugin.trigger("fixture.system.rewrite", { model: input.model }, { system })
  const defaults = { temperature: 0 }
  const options = mergeOptions(mergeOptions(defaults, input.provider.options), input.agent.options)
  const params = yield* input.plugin.trigger("chat.params", { model: input.model }, { options })
  const { headers } = yield* input.plugin.trigger("chat.headers", { model: input.model }, { headers: {} })
  yield* input.plugin.trigger("fixture.after", {}, {})
  const tools: Record<string, any> = { ...input.tools }
  // want-start: tool-strict-mode
  if (input.model.api.npm === "@sdk/acme") {
    for (const key of Object.keys(tools)) tools[key] = { ...tools[key], strict: true }
  }
  // want-end: tool-strict-mode
  // want-start: noop-tool
  if (input.model.providerID.includes("relay") && Object.keys(tools).length === 0) {
    tools["_noop"] = aiTool({
      description: "Placeholder; ignore.",
      inputSchema: jsonSchema({ type: "object", properties: { why: { type: "string" } } }),
    })
  }
  // want-end: noop-tool
  return {
    system,
    params,
    // want-start: tool-order prepared
    tools: Object.fromEntries(Object.entries(tools).toSorted(([a], [b]) => b.localeCompare(a))),
    // want-end: tool-order
    headers: {
      ...(input.model.providerID === "fixture"
        ? { "x-fixture-session": input.sessionID, "User-Agent": "fixture" }
        : { "x-session": input.sessionID, "User-Agent": "fixture" }),
      ...input.model.headers,
      ...headers,
    },
  }
// want-end: request-preparation
})
