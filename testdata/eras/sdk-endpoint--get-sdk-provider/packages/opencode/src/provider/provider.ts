export namespace Provider {
  const cache = new Map<string, unknown>()

  // want-start: sdk-endpoint get-sdk-provider
  async function getSDK(provider: { id: string; npm?: string }, model: { id: string }) {
    return (async () => {
      const pkg = provider.npm ?? provider.id
      const options: Record<string, any> = { model: model.id }
      const mod = await import(pkg)
      const loaded = mod.create(options)
      cache.set(pkg, loaded)
      return loaded
    })()
  }
  // want-end: sdk-endpoint

  export function sdkCount() {
    return cache.size
  }
}
