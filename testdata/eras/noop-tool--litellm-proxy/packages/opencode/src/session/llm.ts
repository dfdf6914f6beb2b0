import { tool, jsonSchema } from "ai"

export async function stream(input: { model: { providerID: string }; history: unknown[] }) {
  const tools = await gather(input)

  // want-start: noop-tool
  const isLiteLLMProxy =
    input.model.providerID.includes("relay") || input.model.providerID.includes("litellm")

  // The proxy wants a tools list whenever the history holds tool calls.
  if (isLiteLLMProxy && Object.keys(tools).length === 0 && input.history.length > 0) {
    tools["_noop"] = tool({
      description: "Placeholder; ignore.",
      inputSchema: jsonSchema({ type: "object", properties: {} }),
    })
  }
  // want-end: noop-tool
  return send(input, tools)
}
