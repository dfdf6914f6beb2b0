import { Effect } from "effect"

const STRUCTURED_OUTPUT_SYSTEM_PROMPT = `Answer with the Shape tool only.`
const STRUCTURED_OUTPUT_DESCRIPTION = "Give the answer here."

export const loop = Effect.fn("SessionPrompt.loop")(function* (input: any) {
  const [notes, env, rules] = yield* Effect.all([input.notes(), input.env(), input.rules()])
  // want-start: system-text-order system-array
  const system = [...rules, ...env, ...(notes ? [notes] : [])]
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
