const BUNDLED_PROVIDERS: Record<string, () => Promise<any>> = {}

export const layer = Effect.gen(function* () {
// want-start: sdk-endpoint resolve-sdk
  async function resolveSDK(model: any, s: any, envs: Record<string, string | undefined>) {
    try {
      const provider = s.providers[model.providerID]
      const options = { ...provider.options }

      const baseURL = iife(() => {
        let url = typeof options["baseURL"] === "string" ? options["baseURL"] : model.api.endpoint
        if (!url) return
        for (const [key, value] of Object.entries(s.vars(options))) {
          const field = "{{" + key + "}}"
          url = url.replaceAll(field, value)
        }
        url = url.replace(/\{\{([a-z]+)\}\}/g, (item: string, key: string) => envs[key] ?? item)
        return url
      })

      if (baseURL !== undefined) options["baseURL"] = baseURL
      if (model.headers)
        options["headers"] = {
          ...model.headers,
          ...options["headers"],
        }

      const bundledLoader = BUNDLED_PROVIDERS[model.api.npm]
      if (bundledLoader) {
        const factory = await bundledLoader()
        return factory({ name: model.providerID, ...options })
      }
// want-end: sdk-endpoint

      const mod = await import(model.api.npm)
      return mod.create(options)
    } catch (e) {
      throw new Error(String(e))
    }
  }
  return { resolveSDK }
})
