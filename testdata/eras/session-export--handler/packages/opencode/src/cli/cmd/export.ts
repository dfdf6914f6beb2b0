import { cmd } from "./cmd"

// want-start: session-export handler
export const ExportCommand = cmd({
  command: "dump [sessionID]",
  builder: (yargs: any) => {
    return yargs.positional("sessionID", { describe: "which one", type: "string" })
  },
  handler: async (args: any) => {
    const info = await load(args.sessionID)
    const exportData = {
      info,
      messages: (await messagesOf(info)).map((m: any) => ({ info: m.info, parts: m.parts })),
    }
    process.stdout.write(JSON.stringify(exportData))
  },
})
// want-end: session-export
