import path from "path"
import { Global } from "../global"
import { Flag } from "@/flag/flag"

export namespace SystemPrompt {
  const LOCAL_RULE_FILES = ["RULES.md", "VENDOR.md"]
  const GLOBAL_RULE_FILES = [path.join(Global.Path.config, "RULES.md")]
  if (!Flag.SKIP_VENDOR) {
    GLOBAL_RULE_FILES.push(path.join(Global.Path.home, ".vendor", "VENDOR.md"))
  }

  // want-start: instruction-loading system-custom
  export async function custom() {
    const paths = new Set<string>()
    for (const name of [...LOCAL_RULE_FILES, ...GLOBAL_RULE_FILES]) paths.add(name)
    return Array.from(paths).map((p) => "From " + p)
  }
  // want-end: instruction-loading

  export function title() {
    return ["a title"]
  }
}
