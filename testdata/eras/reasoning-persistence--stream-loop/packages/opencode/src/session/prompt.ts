export namespace SessionPrompt {
  export async function loop(stream: any, store: any) {
    const open: Record<string, any> = {}
    for await (const value of stream.fullStream) {
      switch (value.type) {
        case "start":
          break

// want-start: reasoning-persistence stream-loop
        case "reasoning-start":
          if (value.id in open) {
            continue
          }
          open[value.id] = { type: "reasoning", text: "", metadata: value.providerMetadata }
          break

        case "reasoning-delta":
          if (value.id in open) {
            open[value.id].text += value.text
            if (value.providerMetadata) open[value.id].metadata = value.providerMetadata
            if (open[value.id].text) await store.save(open[value.id], value.text)
          }
          break

        case "reasoning-end":
          if (value.id in open) {
            open[value.id].text = open[value.id].text.trimEnd()
            await store.save(open[value.id])
            delete open[value.id]
          }
          break
// want-end: reasoning-persistence

        case "finish":
          break
      }
    }
  }
}
