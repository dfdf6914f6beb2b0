import { Effect } from "effect"
import * as Tool from "./tool"

export const TodoWriteTool = Tool.define(
  "todowrite",
  Effect.gen(function* () {
    const store = yield* TodoStore.Service
    return {
      description: "Keep a list of tasks.",
      execute: (params: { todos: Item[] }, ctx: Tool.Context) =>
        Effect.gen(function* () {
          yield* store.put(ctx.sessionID, params.todos)
// want-start: loop-tool-todo
          return {
            title: `${params.todos.length} items`,
            output: JSON.stringify(params.todos, null, 4),
            metadata: { todos: params.todos },
          }
// want-end: loop-tool-todo
        }),
    }
  }),
)

export const TodoReadTool = Tool.define("todoread", {
  description: "Read the list of tasks.",
  async execute(_params: {}, ctx: Tool.Context) {
    const todos = await TodoStore.get(ctx.sessionID)
// want-start: loop-tool-todoread
    return {
      title: `${todos.length} items`,
      output: JSON.stringify(todos, null, 4),
      metadata: { todos },
    }
// want-end: loop-tool-todoread
  },
})
