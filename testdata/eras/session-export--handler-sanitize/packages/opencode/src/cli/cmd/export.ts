import { cmd } from "./cmd"

function sanitize(data: { info: any; messages: any[] }) {
  return { info: data.info, messages: data.messages.map(() => "[hidden]") }
}

// want-start: session-export handler-sanitize
export const ExportCommand = cmd({
  command: "dump [sessionID]",
  builder: (yargs: any) =>
    yargs
      .positional("sessionID", { describe: "which one", type: "string" })
      .option("sanitize", { describe: "hide things", type: "boolean" }),
  handler: async (args: any) => {
    const info = await load(args.sessionID)
    const exportData = { info, messages: await messagesOf(info) }
    process.stdout.write(JSON.stringify(args.sanitize ? sanitize(exportData) : exportData))
  },
})
// want-end: session-export
