// want-file: tool-descriptions-shell-txt packages/opencode/src/tool/shell/shell.txt
import DESCRIPTION from "./shell.txt"
import { renderPrompt } from "../../util/render"

export function render(name: string, platform: string) {
  return { description: renderPrompt(DESCRIPTION, { shell: name, os: platform }) }
}
