// The registry lists every built-in tool; plugins add theirs later.
import * as tools from "../tools"
import { Plugin } from "../../plugin"

export function registry() {
  return Object.values(tools)
}
