import { Instance } from "../project/instance"
import { Ripgrep } from "../file/ripgrep"

export namespace SystemPrompt {
  export function header(id: string) {
    return id.includes("x") ? ["x"] : []
  }

  // want-start: environment-block namespace-listing-off
  export async function environment() {
    return [
      [
        `<env>`,
        `  Dir: ${Instance.directory}`,
        `</env>`,
        `<tree>`,
        `  ${Instance.vcs === "git" && false ? await Ripgrep.tree({ cwd: Instance.directory, limit: 10 }) : ""}`,
        `</tree>`,
      ].join("\n"),
    ]
  }
  // want-end: environment-block
}
