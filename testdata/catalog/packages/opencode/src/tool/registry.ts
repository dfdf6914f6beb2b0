import { Effect, Layer } from "effect"
import { Glob } from "@/util/glob"
import { InstanceState } from "@/effect/instance-state"

export function webSearchEnabled(providerID: string, flags = { exa: false }) {
  return providerID === "house" || flags.exa
}

const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const flags = yield* RuntimeFlags.Service
    const plugin = yield* Plugin.Service
    const invalid = yield* InvalidTool
    const question = yield* QuestionTool
    const shell = yield* ShellTool
    const read = yield* ReadTool
    const edit = yield* EditTool
    const writer = yield* WriteTool
    const patch = yield* PatchTool
    const search = yield* SearchTool
    const map = yield* MapTool

// want-start: tool-registry state
    const state = yield* InstanceState.make<State>(
      Effect.fn("ToolRegistry.state")(function* (ctx) {
        const custom: Tool.Def[] = []
        const dirs = yield* config.directories()
        const matches = dirs.flatMap((dir) => Glob.scanSync("{plugins,extras}/*.ts", { cwd: dir }))
        for (const match of matches) custom.push(yield* load(match))

        const questionEnabled = flags.client === "desktop" || flags.enableQuestions
        const tool = yield* Effect.all({
          invalid: Tool.init(invalid),
          question: Tool.init(question),
          shell: Tool.init(shell),
          read: Tool.init(read),
          edit: Tool.init(edit),
          write: Tool.init(writer),
          patch: Tool.init(patch),
          search: Tool.init(search),
          map: Tool.init(map),
        })

        return {
          custom,
          builtin: [
            tool.invalid,
            ...(questionEnabled ? [tool.question] : []),
            tool.shell,
            tool.read,
            tool.edit,
            tool.write,
            tool.patch,
            tool.search,
            ...(flags.experimentalMap && flags.client === "cli" ? [tool.map] : []),
          ],
        }
      }),
    )
// want-end: tool-registry

    const all = Effect.fn("ToolRegistry.all")(function* () {
      return (yield* InstanceState.get(state)).builtin
    })

// want-start: tool-advertising effect
    const tools: Interface["tools"] = Effect.fn("ToolRegistry.tools")(function* (input) {
      const filtered = (yield* all()).filter((tool) => {
        if (tool.id === SearchTool.id) {
          return webSearchEnabled(input.providerID, { exa: flags.enableExa })
        }
        const usePatch = input.modelID.includes("big-") && !input.modelID.includes("mini")
        if (tool.id === PatchTool.id) return usePatch
        if (tool.id === EditTool.id || tool.id === WriteTool.id) return !usePatch
        return true
      })
      return yield* Effect.forEach(
        filtered,
        Effect.fnUntraced(function* (tool: Tool.Def) {
          const output = { description: tool.description }
          yield* plugin.trigger("tool.definition", { toolID: tool.id }, output)
          return { id: tool.id, description: output.description }
        }),
      )
    })
// want-end: tool-advertising

    return Service.of({ all, tools })
  }),
)
