import type { ModelMessage } from "ai"
import { mergeDeep, unique } from "remeda"

export const OUTPUT_TOKEN_MAX = 12_000

// want-start: sampling-defaults-temperature
export function temperature(model: any) {
  const id = model.id.toLowerCase()
  if (id.includes("warm")) return 0.7
  if (id.includes("cool")) return undefined
  if (id.includes("mixed")) {
    if (["hot", "hotter"].some((s) => id.includes(s))) {
      return 1.0
    }
    return 0.3
  }
  return undefined
}
// want-end: sampling-defaults-temperature

// want-start: sampling-defaults-topp
export function topP(model: any) {
  const id = model.id.toLowerCase()
  if (["warm", "mixed"].some((s) => id.includes(s))) {
    return 0.9
  }
  return undefined
}
// want-end: sampling-defaults-topp

// want-start: sampling-defaults-topk
export function topK(model: any) {
  const id = model.id.toLowerCase()
  if (id.includes("warm")) return 30
  return undefined
}
// want-end: sampling-defaults-topk

// want-start: output-token-limit model-limit
export function maxOutputTokens(model: any, outputTokenMax = OUTPUT_TOKEN_MAX): number {
  return Math.min(model.limit.output, outputTokenMax) || outputTokenMax
}
// want-end: output-token-limit

function mimeToModality(mime: string) {
  if (mime.startsWith("image/")) return "image"
  if (mime === "application/x-sound") return "audio"
  return undefined
}

// want-start: message-normalisation normalize-messages
function normalizeMessages(msgs: ModelMessage[], model: any): ModelMessage[] {
  if (model.api.npm === "@sdk/strict") {
    msgs = msgs.filter((msg) => msg.content !== "")
  }
  if (model.api.id.includes("sonnet")) {
    const scrub = (id: string) => id.replace(/[^a-z0-9]/g, "-")
    msgs = msgs.map((msg: any) => ({ ...msg, toolCallId: msg.toolCallId && scrub(msg.toolCallId) }))
  }
  if (model.providerID === "breeze") {
    const scrub = (id: string) => id.replace(/[^a-z]/g, "").substring(0, 7).padEnd(7, "x")
    const result: ModelMessage[] = []
    for (const msg of msgs as any[]) {
      result.push({ ...msg, toolCallId: msg.toolCallId && scrub(msg.toolCallId) })
      if (msg.role === "tool") {
        result.push({ role: "assistant", content: [{ type: "text", text: "Okay." }] })
      }
    }
    return result
  }
  return msgs
}
// want-end: message-normalisation

// want-start: prompt-caching-marks
function applyCaching(msgs: ModelMessage[], model: any): ModelMessage[] {
  const system = msgs.filter((msg) => msg.role === "system").slice(0, 1)
  const final = msgs.filter((msg) => msg.role !== "system").slice(-3)
  const providerOptions = {
    acme: { cacheControl: { type: "short" } },
    rocks: { cachePoint: { type: "plain" } },
  }
  for (const msg of unique([...system, ...final]) as any[]) {
    const useMessageLevelOptions = model.providerID === "acme"
    const shouldUseContentOptions = !useMessageLevelOptions && Array.isArray(msg.content)
    if (shouldUseContentOptions) {
      const last = msg.content[msg.content.length - 1]
      last.providerOptions = mergeDeep(last.providerOptions ?? {}, providerOptions)
      continue
    }
    msg.providerOptions = mergeDeep(msg.providerOptions ?? {}, providerOptions)
  }
  return msgs
}
// want-end: prompt-caching-marks

// want-start: unsupported-media
function unsupportedParts(msgs: ModelMessage[], model: any): ModelMessage[] {
  return msgs.map((msg: any) => {
    if (msg.role !== "user") return msg
    const content = msg.content.map((part: any) => {
      const modality = mimeToModality(part.mediaType)
      if (!modality || model.capabilities.input[modality]) return part
      return { type: "text" as const, text: `Cannot open ${modality} here.` }
    })
    return { ...msg, content }
  })
}
// want-end: unsupported-media

export function message(msgs: ModelMessage[], model: any) {
  msgs = unsupportedParts(msgs, model)
  msgs = normalizeMessages(msgs, model)
  if (model.providerID === "acme" || model.api.id.includes("rock")) {
    msgs = applyCaching(msgs, model)
  }
  return msgs
}

// want-start: provider-option-defaults
export function options(input: { model: any; sessionID: string }): Record<string, any> {
  const result: Record<string, any> = {}
  if (input.model.providerID === "acme") {
    result["store"] = false
  }
  if (input.model.api.id.includes("deep")) {
    if (input.model.providerID === "rocks") return result
    result["reasoningEffort"] = "low"
    result["depthConfig"] = { shown: true }
    result["depthConfig"]["depth"] = 3
  }
  return result
}
// want-end: provider-option-defaults

// want-start: small-model-options
export function smallOptions(model: any) {
  const small = Object.values(model.variants ?? {})[0] ?? {}
  if (model.providerID === "acme") {
    return mergeDeep({ store: false }, small)
  }
  return small
}
// want-end: small-model-options

// want-start: tool-schema-conversion
export function schema(model: any, schema: any): any {
  if (model.api.id.includes("flat")) {
    const flatten = (obj: any): any => {
      if (obj === null || typeof obj !== "object") return obj
      const result: any = {}
      for (const [key, value] of Object.entries(obj)) {
        result[key] = key === "enum" && Array.isArray(value) ? value.map((v) => String(v)) : flatten(value)
      }
      return result
    }
    schema = flatten(schema)
  }
  return schema
}
// want-end: tool-schema-conversion
