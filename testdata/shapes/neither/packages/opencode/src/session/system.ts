export function environment() {
  return ["<env>", "</env>"]
}
