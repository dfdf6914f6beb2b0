export function header() {
  return "You are a beta coding agent."
}
