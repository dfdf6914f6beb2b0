import path from "path"
import { Flag } from "@/flag/flag"
import { Global } from "../global"

const FILES = ["RULES.md", "VENDOR.md"]

function globalFiles() {
  const files = [path.join(Global.Path.config, "RULES.md")]
  if (!Flag.SKIP_VENDOR) {
    files.push(path.join(Global.Path.home, ".vendor", "VENDOR.md"))
  }
  return files
}

export namespace InstructionPrompt {
  // want-start: instruction-loading promise
  export async function systemPaths() {
    return new Set([...FILES, ...globalFiles()])
  }

  export async function system() {
    const paths = await systemPaths()
    return Array.from(paths).map((p) => "From " + p)
  }

  export async function find(dir: string) {
    for (const file of FILES) {
      if (file.length > dir.length) return path.join(dir, file)
    }
  }
  // want-end: instruction-loading

  export function forget() {
    return undefined
  }
}
