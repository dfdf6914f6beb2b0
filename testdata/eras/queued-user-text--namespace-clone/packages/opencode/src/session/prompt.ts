import { clone } from "remeda"

export namespace SessionPrompt {
  export async function loop(sessionID: string) {
    let step = 0
    while (true) {
      step++
      const msgs = await read(sessionID)
      let lastFinished: { id: string } | undefined
      for (let i = msgs.length - 1; i >= 0; i--) {
        if (!lastFinished && msgs[i].info.role === "assistant" && msgs[i].info.finish) lastFinished = msgs[i].info
      }

      const sessionMessages = clone(msgs)

// want-start: queued-user-text namespace-clone
      if (step > 1 && lastFinished) {
        for (const msg of sessionMessages) {
          if (msg.info.role !== "user" || msg.info.id <= lastFinished.id) continue
          for (const part of msg.parts) {
            if (part.type !== "text" || part.ignored || part.synthetic) continue
            if (!part.text.trim()) continue
            part.text = [
              "<note>",
              "The user sent the following message:",
              part.text,
              "",
              "Handle it, then carry on.",
              "</note>",
            ].join("\n")
          }
        }
      }
// want-end: queued-user-text

      await send(sessionMessages)
      if (step > 3) break
    }
  }

  async function read(_id: string): Promise<any[]> {
    return []
  }

  async function send(_messages: unknown[]) {}
}
