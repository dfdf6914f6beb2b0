export namespace SessionPrompt {
  async function createUserMessage(input: any) {
    const parts = await Promise.all(
      // want-start: user-input-parts parts-map
      input.parts.map(async (part: any) => {
        if (part.type === "file") {
          return [
            { type: "text", synthetic: true, text: `Opened ${part.filename} for you` },
            { ...part },
          ]
        }
        if (part.type === "agent") {
          return [{ type: "text", synthetic: true, text: "Hand this to " + part.name }]
        }
        return [part]
      }),
      // want-end: user-input-parts
    )
    return parts.flat()
  }
}
