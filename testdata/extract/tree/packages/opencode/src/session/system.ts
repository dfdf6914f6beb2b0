import PROMPT_ALPHA from "./prompt/alpha.txt"
import PROMPT_BASE from "./prompt/base.txt"
import { Helper } from "@/helper"

// Routing in the shape opencode uses: ordered substring tests.
export function provider(model: { id: string }) {
  if (model.id.includes("alpha") || model.id.includes("a1")) return [PROMPT_ALPHA]
  return [PROMPT_BASE]
}

export const limits = {
  maxLines: 2_000,
  maxBytes: 50 * 1024,
}

export function setup() {
  const flags = Helper.flags()
  const files = ["AGENTS.md", "CONTEXT.md"]
  const later = 1
  return { flags, files, later }
}
