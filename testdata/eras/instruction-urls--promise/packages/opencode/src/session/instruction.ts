import { Settings } from "../settings"

export namespace InstructionPrompt {
  export async function remote() {
    const settings = await Settings.load()
    const local = (settings.files ?? []).map((f) => Settings.read(f).catch(() => ""))
    // want-start: instruction-urls promise
    const urls: string[] = []
    for (const rule of settings.rules ?? []) {
      if (rule.startsWith("https://")) urls.push(rule)
    }
    const fetches = urls.map((url) =>
      fetch(url, { signal: AbortSignal.timeout(1500 * 2) })
        .then((res) => (res.ok ? res.text() : ""))
        .catch(() => "")
        .then((body) => (body ? "From " + url + ":\n" + body : "")),
    )

    return Promise.all([...local, ...fetches]).then((all) => all.filter(Boolean))
    // want-end: instruction-urls
  }
}
