// want-start: tool-result-question
export const toModelOutput = (questions: ReadonlyArray<{ text: string }>, answers: ReadonlyArray<string[]>) => {
  const pairs = questions.map((q, i) => `${q.text} -> ${answers[i]?.join("/") || "(none)"}`).join("; ")
  return `Answers: ${pairs}.`
}
// want-end: tool-result-question
