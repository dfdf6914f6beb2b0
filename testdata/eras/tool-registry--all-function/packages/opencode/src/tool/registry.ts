import { AlphaTool } from "./alpha"
import { BetaTool } from "./beta"
import { GammaTool } from "./gamma"
import { DeltaTool } from "./delta"
import { Instance } from "../project/instance"
import { Config } from "../config/config"
import { Flag } from "../flag/flag"
import type { Tool } from "./tool"

export namespace ToolRegistry {
  export const state = Instance.state(async () => {
    const custom = [] as Tool.Info[]
    const glob = new Bun.Glob("gadgets/*.{js,ts}")
    for (const dir of await Config.directories()) {
      for await (const match of glob.scan({ cwd: dir })) {
        custom.push(await import(match))
      }
    }
    return { custom }
  })

  // want-start: tool-registry all-function
  async function all(): Promise<Tool.Info[]> {
    const custom = await state().then((x) => x.custom)
    const config = await Config.get()
    const gamma = Flag.OPENCODE_GAMMA || config.gamma === true

    return [
      AlphaTool,
      ...(gamma ? [GammaTool] : []),
      BetaTool,
      ...(Flag.OPENCODE_DELTA && Flag.OPENCODE_CLIENT === "cli" ? [DeltaTool] : []),
      ...custom,
    ]
  }
  // want-end: tool-registry

  export async function ids() {
    return all().then((x) => x.map((t) => t.id))
  }
}
