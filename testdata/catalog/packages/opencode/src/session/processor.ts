import { Effect } from "effect"

const DOOM_LOOP_THRESHOLD = 4

export const make = Effect.fn("SessionProcessor.make")(function* (ctx: any, session: any) {
// want-start: reasoning-persistence handle-event
  const handleEvent = Effect.fnUntraced(function* (value: any) {
    switch (value.type) {
      case "reasoning-start":
        ctx.parts[value.id] = { type: "reasoning", text: "" }
        return

      case "reasoning-delta":
        if (!(value.id in ctx.parts)) return
        ctx.parts[value.id].text += value.text
        return

      case "reasoning-end":
        yield* session.finish(value.id)
        return
// want-end: reasoning-persistence

      case "text-start":
        return

// want-start: doom-loop
      case "tool-call": {
        const input = value.input ?? {}
        const recent = (yield* session.parts(ctx.id)).slice(-DOOM_LOOP_THRESHOLD)
        if (
          recent.length !== DOOM_LOOP_THRESHOLD ||
          !recent.every((part: any) => part.type === "tool" && part.tool === value.name && JSON.stringify(part.input) === JSON.stringify(input))
        ) {
          return
        }
        yield* ctx.permission.ask({ permission: "doom_loop", patterns: [value.name] })
        return
      }
// want-end: doom-loop

      case "tool-result": {
        yield* ctx.permission.ask({ permission: "edit", patterns: [value.name] })
        return
      }
    }
  })
  return handleEvent
})
