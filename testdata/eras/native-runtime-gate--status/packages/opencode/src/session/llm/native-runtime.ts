export type RuntimeStatus =
  | { readonly type: "supported"; readonly apiKey: string; readonly baseURL?: string }
  | { readonly type: "unsupported"; readonly reason: string }

export interface StreamInput {
  readonly model: { providerID: string; api: { npm: string } }
  readonly provider: { options: Record<string, unknown>; key?: string }
  readonly auth?: { type: "api"; key: string } | { type: "oauth" }
}

// want-start: native-runtime-gate status
export function status(input: StreamInput): RuntimeStatus {
  if (input.model.providerID !== "acme" && !input.model.providerID.startsWith("house"))
    return { type: "unsupported", reason: "provider is not acme" }
  if (input.model.api.npm !== "@acme/sdk") return { type: "unsupported", reason: "package is not the acme one" }
  if (input.auth?.type === "oauth") return { type: "unsupported", reason: "no oauth here" }

  const apiKey = input.auth?.type === "api" ? input.auth.key : input.provider.key
  if (!apiKey) return { type: "unsupported", reason: "no key" }

  return { type: "supported", apiKey }
}
// want-end: native-runtime-gate

export function stream(input: StreamInput) {
  const current = status(input)
  return current
}
