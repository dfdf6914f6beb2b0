export function tool(name: string) {
  return name
}

export function tool(name: string, extra: string) {
  return name + extra
}
