import { SystemPrompt } from "./system"
import { MessageV2 } from "./message-v2"
import { generateText } from "ai"

export namespace SessionCompaction {
// want-start: compaction-request namespace-run
  export async function run(input: { sessionID: string; messages: MessageV2.WithParts[] }) {
    const system = [...SystemPrompt.summarize("house")]
    const generated = await generateText({
      messages: [
        ...system.map((x) => ({ role: "system" as const, content: x })),
        ...MessageV2.toModelMessage(input.messages),
        {
          role: "user",
          content: [{ type: "text", text: "Provide a detailed summary of what happened." }],
        },
      ],
    })
    return generated.text
  }
// want-end: compaction-request
}
