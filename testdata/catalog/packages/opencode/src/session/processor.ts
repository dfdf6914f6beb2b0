import { Effect } from "effect"

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
    }
  })
  return handleEvent
})
