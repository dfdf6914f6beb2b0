import { Effect } from "effect"
import * as Tool from "./tool"

export const QuestionTool = Tool.define(
  "question",
  Effect.gen(function* () {
    const asker = yield* Asker.Service
    return {
      description: "Ask the user.",
      execute: (params: { questions: Prompt[] }, ctx: Tool.Context) =>
        Effect.gen(function* () {
          const answers = yield* asker.ask(ctx.sessionID, params.questions)
// want-start: loop-tool-question inline
          const formatted = params.questions
            .map((q, i) => `${q.question} -> ${answers[i]?.length ? answers[i].join("; ") : "(none)"}`)
            .join(" | ")

          return {
            title: "Asked",
            output: `Answers: ${formatted}.`,
            metadata: { answers },
          }
// want-end: loop-tool-question
        }),
    }
  }),
)
