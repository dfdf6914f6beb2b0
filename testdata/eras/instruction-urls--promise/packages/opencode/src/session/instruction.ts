import { Settings } from "../settings"

export namespace InstructionPrompt {
  export async function remote() {
    const settings = await Settings.load()
    const urls: string[] = (settings.rules ?? []).filter((r) => r.startsWith("https://"))
    const pending = urls.length
    // want-start: instruction-urls promise
    const fetches = urls.map((url) =>
      fetch(url, { signal: AbortSignal.timeout(1500 * 2) })
        .then((res) => (res.ok ? res.text() : ""))
        .catch(() => "")
        .then((body) => (body ? "From " + url + ":\n" + body : "")),
    )
    // want-end: instruction-urls
    return pending ? Promise.all(fetches) : []
  }
}
