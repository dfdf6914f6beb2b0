import { Effect } from "effect"
import { effectCmd } from "../effect-cmd"

// want-start: session-export effect-run
function redact(kind: string, value: string) {
  return value ? `[hidden ${kind}]` : value
}

function sanitize(data: any) {
  return { ...data, title: redact("title", data.title) }
}

export const ExportCommand = effectCmd({
  command: "dump [sessionID]",
  describe: "write a session as JSON",
  builder: (yargs: any) =>
    yargs
      .positional("sessionID", {
        describe: "which session",
        type: "string",
      })
      .option("sanitize", {
        describe: "hide transcript text",
        type: "boolean",
      }),
  handler: Effect.fn("Cli.export")(function* (args: any) {
    return yield* run(args)
  }),
})

const run = Effect.fn("Cli.export.body")(function* (args: { sessionID?: string; sanitize?: boolean }) {
  const info = yield* Session.get(args.sessionID)
  const messages = yield* Session.messages(info.id)
  const exportData = { info, messages }
  process.stdout.write(JSON.stringify(args.sanitize ? sanitize(exportData) : exportData, null, 2))
})
// want-end: session-export
