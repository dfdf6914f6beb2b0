import { Effect } from "effect"
import * as Tool from "./tool"
import { Asker } from "../asker"

export const PlanExitTool = Tool.define(
  "plan_exit",
  Effect.gen(function* () {
    const asker = yield* Asker.Service
    const sessions = yield* Sessions.Service
    return {
      description: "Leave plan mode.",
      execute: (_params: {}, ctx: Tool.Context) =>
        Effect.gen(function* () {
          const answers = yield* asker.ask(ctx.sessionID, [{ question: "Switch?", options: ["Yes", "No"] }])
// want-start: loop-tool-plan
          if (answers[0]?.[0] === "No") yield* new Asker.RejectedError()

          yield* sessions.addUserText({
            sessionID: ctx.sessionID,
            agent: "build",
            text: "Go ahead with the plan.",
          })

          return {
            title: "Switching",
            output: "Switched; wait.",
            metadata: {},
          }
// want-end: loop-tool-plan
        }).pipe(Effect.orDie),
    }
  }),
)
