import { Instance } from "../project/instance"
import { Ripgrep } from "../file/ripgrep"
import type { Provider } from "@/provider/provider"

export namespace SystemPrompt {
  // want-start: environment-block namespace-model
  export async function environment(model: Provider.Model) {
    return [
      [
        `Running ${model.api.id}`,
        `<env>`,
        `  Dir: ${Instance.directory}`,
        `</env>`,
        `<dirs>`,
        `  ${Instance.vcs && false ? await Ripgrep.tree({ cwd: Instance.directory, limit: 10 }) : ""}`,
        `</dirs>`,
      ].join("\n"),
    ]
  }
  // want-end: environment-block
}
