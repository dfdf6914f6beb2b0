export namespace SessionPrompt {
  export async function loop(input: any) {
    return input.stream({
      agent: input.agent,
      // want-start: system-text-order llm-argument
      system: [...(await input.rules()), ...(await input.env())],
      // want-end: system-text-order
      messages: [],
    })
  }
}
