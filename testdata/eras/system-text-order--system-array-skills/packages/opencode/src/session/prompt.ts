const STRUCTURED_OUTPUT_SYSTEM_PROMPT = `Reply through the Shape tool.`

export namespace SessionPrompt {
  export async function loop(input: { sessionID: string; format?: { type: string } }) {
    const msgs = await Session.messages(input.sessionID)
    await Plugin.trigger("experimental.chat.messages.transform", {}, { messages: msgs })

    // Gather the system texts
    // want-start: system-text-order system-array
    const skills = await SystemPrompt.skills(input)
    const system = [
      ...(await SystemPrompt.environment(input)),
      ...(skills ? [skills] : []),
      ...(await InstructionPrompt.system()),
    ]
    const format = input.format ?? { type: "text" }
    if (format.type === "json_schema") {
      system.push(STRUCTURED_OUTPUT_SYSTEM_PROMPT)
    }
    // want-end: system-text-order

    return processor.process({ system, messages: msgs })
  }
}
