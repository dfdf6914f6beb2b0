import { Effect } from "effect"

const STRUCTURED_OUTPUT_SYSTEM_PROMPT = `Answer with the Shape tool only.`

export const loop = Effect.fn("SessionPrompt.loop")(function* (input: any) {
  const [notes, env, rules] = yield* Effect.all([input.notes(), input.env(), input.rules()])
  // want-start: system-text-order system-array
  const system = [...rules, ...env, ...(notes ? [notes] : [])]
  const format = input.format ?? { type: "text" as const }
  if (format.type === "json_schema") system.push(STRUCTURED_OUTPUT_SYSTEM_PROMPT)
  // want-end: system-text-order
  return yield* input.process({ system })
})
