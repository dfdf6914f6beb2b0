import { Effect } from "effect"
import { effectCmd } from "../effect-cmd"

function sanitize(data: any) {
  return { ...data, title: "[redacted]" }
}

// want-start: session-export effect-run
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
