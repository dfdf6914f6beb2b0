import path from "path"
import { Context, Effect, Layer } from "effect"
import { Flag } from "@/flag/flag"
import { Global } from "@/global"

const FILES = ["RULES.md", ...(Flag.SKIP_VENDOR ? [] : ["VENDOR.md"]), "OLD.md"]

function globalFiles() {
  const files = []
  files.push(path.join(Global.Path.config, "RULES.md"))
  if (!Flag.SKIP_VENDOR) {
    files.push(path.join(Global.Path.home, ".vendor", "VENDOR.md"))
  }
  return files
}

export class Service extends Context.Service<Service, {}>()("@fixture/Instruction") {}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const read = Effect.fnUntraced(function* (file: string) {
      return yield* Effect.succeed(file)
    })

    // want-start: instruction-loading effect-files
    const systemPaths = Effect.fn("Instruction.systemPaths")(function* () {
      const found = new Set<string>()
      for (const file of [...FILES, ...globalFiles()]) found.add(file)
      return found
    })

    const system = Effect.fn("Instruction.system")(function* () {
      const paths = yield* systemPaths()
      return yield* Effect.forEach(Array.from(paths), read, { concurrency: 2 + 1 })
    })

    const find = Effect.fn("Instruction.find")(function* (dir: string) {
      for (const file of FILES) {
        if (file === dir) return path.join(dir, file)
      }
    })
    // want-end: instruction-loading

    return Service.of({ system, find })
  }),
)
