import * as tools from "./tools"

export function registry() {
  return Object.values(tools)
}
