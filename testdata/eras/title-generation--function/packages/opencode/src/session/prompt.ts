import { Provider } from "../provider/provider"
import { SystemPrompt } from "./system"
import { MessageV2 } from "./message-v2"
import { generateText } from "ai"

export namespace SessionPrompt {
// want-start: title-generation function
  async function ensureTitle(input: { session: { id: string; parentID?: string }; message: MessageV2.WithParts; providerID: string; modelID: string }) {
    if (input.session.parentID) return
    const small = (await Provider.getSmallModel(input.providerID)) ?? (await Provider.getModel(input.providerID, input.modelID))
    const result = await generateText({
      maxOutputTokens: 30,
      messages: [
        ...SystemPrompt.title(small.providerID).map((x) => ({ role: "system" as const, content: x })),
        ...MessageV2.toModelMessage([input.message]),
      ],
      model: small.language,
    })
    const cleaned = result.text.replace(/<think>[\s\S]*?<\/think>\s*/g, "")
    const title = cleaned.length > 80 ? cleaned.substring(0, 77) + "..." : cleaned
    return title.trim()
  }
// want-end: title-generation
}
