import { Agent } from "../agent/agent"
import { Session } from "./session"
import { MessageV2 } from "./message-v2"

export namespace SessionCompaction {
// want-start: compaction-request namespace-process
  export async function process(input: { messages: MessageV2.WithParts[]; sessionID: string; auto: boolean }) {
    const agent = await Agent.get("compaction")
    const processor = Session.processor({ sessionID: input.sessionID })
    const result = await processor.process({
      agent,
      tools: {},
      system: [],
      messages: [
        ...MessageV2.toModelMessage(input.messages),
        {
          role: "user",
          content: [{ type: "text", text: "Provide a detailed recap of the work so far." }],
        },
      ],
    })
    if (result === "continue" && input.auto) {
      await Session.updatePart({ type: "text", synthetic: true, text: "Continue if you have next steps" })
    }
    return result
  }
// want-end: compaction-request
}
