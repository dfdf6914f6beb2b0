import { Instance } from "../project/instance"
import { Ripgrep } from "../file/ripgrep"

export namespace SystemPrompt {
  // want-start: environment-block namespace-listing
  export async function environment() {
    const where = Instance.directory
    return [
      [
        `<env>`,
        `  Dir: ${where}`,
        `</env>`,
        `<tree>`,
        `  ${Instance.vcs === "git" ? await Ripgrep.tree({ cwd: where, limit: 4 * 25 }) : ""}`,
        `</tree>`,
      ].join("\n"),
    ]
  }
  // want-end: environment-block
}
