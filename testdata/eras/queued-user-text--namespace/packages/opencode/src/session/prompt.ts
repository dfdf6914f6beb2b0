export namespace SessionPrompt {
  export async function loop(sessionID: string) {
    let step = 0
    while (true) {
      step++
      let msgs = await read(sessionID)
      const lastFinished = msgs.findLast((msg) => msg.info.role === "assistant" && msg.info.finish)?.info

      // A decoy: the walk over a copy belongs to the older era.
      const copy = msgs.map((msg) => ({ ...msg }))
      for (const msg of copy) msg.seen = true

// want-start: queued-user-text namespace
      if (step > 1 && lastFinished) {
        for (const msg of msgs) {
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

      await send(msgs)
      if (step > 3) break
    }
  }

  async function read(_id: string): Promise<any[]> {
    return []
  }

  async function send(_messages: unknown[]) {}
}
