export type RuntimeStatus =
  | { readonly type: "supported"; readonly apiKey: string }
  | { readonly type: "unsupported"; readonly reason: string }

export function status(input: any): RuntimeStatus {
  return statusWithFetch(input, undefined)
}

// want-start: native-runtime-gate with-fetch
function statusWithFetch(input: any, fetch: typeof globalThis.fetch | undefined): RuntimeStatus {
  const providerID = input.model.providerID
  if (providerID !== "acme" && !providerID.startsWith("house"))
    return { type: "unsupported", reason: "unknown provider" }
  const npm = input.model.api.npm
  if (npm !== "@sdk/acme" && npm !== "@sdk/compatible") {
    return { type: "unsupported", reason: "unknown package" }
  }
  const apiKey = input.provider.key
  if (!apiKey) return { type: "unsupported", reason: "no key" }
  return { type: "supported", apiKey }
}
// want-end: native-runtime-gate
