import { Tool } from "./tool"
import { Asker } from "../asker"

export const QuestionTool = Tool.define("question", {
  description: "Ask the user.",
  async execute(params, ctx) {
    const answers = await Asker.ask(ctx.sessionID, params.questions)
// want-start: loop-tool-question single-answer
    const formatted = params.questions.map((q, i) => `${q.question} -> ${answers[i] ?? "(none)"}`).join(" | ")

    return {
      title: "Asked",
      output: `Answers: ${formatted}.`,
      metadata: { answers },
    }
// want-end: loop-tool-question
  },
})
