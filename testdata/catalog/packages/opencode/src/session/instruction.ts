import path from "path"
import { Context, Effect, Layer } from "effect"
import { HttpClient, HttpClientRequest } from "effect/unstable/http"
import { RuntimeFlags } from "@/effect/runtime-flags"
import { Global } from "@/global"

export class Service extends Context.Service<Service, {}>()("@fixture/Instruction") {}

const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const global = yield* Global.Service
// want-start: instruction-loading runtime-flags
    const flags = yield* RuntimeFlags.Service
    const http = HttpClient.filterStatusOk(yield* HttpClient.HttpClient)
    const globalFiles = [
      path.join(global.config, "RULES.md"),
      ...(!flags.skipVendorRules ? [path.join(global.home, ".vendor", "VENDOR.md")] : []),
    ]
    const instructionFiles = ["RULES.md", ...(!flags.skipVendorRules ? ["VENDOR.md"] : []), "OLD.md"]

    const read = Effect.fnUntraced(function* (file: string) {
      return yield* Effect.succeed(file)
    })

// want-start: instruction-urls effect
    const fetch = Effect.fnUntraced(function* (url: string) {
      const res = yield* http.execute(HttpClientRequest.get(url)).pipe(
        Effect.timeout(2_500),
        Effect.catch(() => Effect.succeed(null)),
      )
      if (!res) return ""
      return yield* res.text
    })
// want-end: instruction-urls

    const system = Effect.fn("Instruction.system")(function* (paths: string[], urls: string[]) {
      const files = yield* Effect.forEach(paths, read, { concurrency: 3 })
      const remote = yield* Effect.forEach(urls, fetch, { concurrency: 2 })
      return [...files, ...remote]
    })

    const find = Effect.fn("Instruction.find")(function* (dir: string) {
      for (const file of instructionFiles) {
        if (file === dir) return path.join(dir, file)
      }
      return undefined
    })
// want-end: instruction-loading

    return Service.of({ system, find })
  }),
)
