import { Tool } from "./tool"
import { Asker } from "../asker"

export const QuestionTool = Tool.define("question", {
  description: "Ask the user.",
  async execute(params, ctx) {
    const answers = await Asker.ask(ctx.sessionID, params.questions)

// want-start: loop-tool-question helper
    function format(answer: string[] | undefined) {
      if (!answer?.length) return "(none)"
      return answer.join("; ")
    }

    const formatted = params.questions.map((q, i) => `${q.question} -> ${format(answers[i])}`).join(" | ")

    return {
      title: "Asked",
      output: `Answers: ${formatted}.`,
      metadata: { answers },
    }
// want-end: loop-tool-question
  },
})
