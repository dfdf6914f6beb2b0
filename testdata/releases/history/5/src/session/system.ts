export function header() {
  return "You are a coding agent."
}
