export function legacyHook(plugins: string[]) {
  for (const p of plugins) console.log("hook", p)
}
