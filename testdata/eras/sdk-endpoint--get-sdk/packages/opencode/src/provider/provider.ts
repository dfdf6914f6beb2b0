const BUNDLED: Record<string, (options: any) => unknown> = {}

export namespace Provider {
  const cache = new Map<string, unknown>()

  // want-start: sdk-endpoint get-sdk
  async function getSDK(model: { providerID: string; api: { npm: string; url: string }; headers?: any }) {
    try {
      const options: Record<string, any> = { ...lookup(model.providerID) }
      if (!options["baseURL"]) options["baseURL"] = model.api.url
      if (model.headers)
        options["headers"] = {
          ...options["headers"],
          ...model.headers,
        }
      const bundledFn = BUNDLED[model.api.npm]
      if (bundledFn) {
        const loaded = bundledFn(options)
        cache.set(model.providerID, loaded)
        return loaded
      }
      // want-end: sdk-endpoint
      return undefined
    } catch (e) {
      throw new Error("fixture: no sdk", { cause: e })
    }
  }

  function lookup(id: string) {
    return { id }
  }
}
