import * as Tool from "./tool"

export const SkillTool = Tool.define("skill", async () => ({
  async execute(params: { name: string }) {
    const skill = await Skill.get(params.name)
    if (!skill) throw new Error(`no skill ${params.name}`)
    const dir = path.dirname(skill.location)
    // want-start: loop-tool-skill markdown-header
    const output = [`## Skill: ${skill.name}`, `Dir: ${dir}`, skill.content].join("\n")

    return {
      title: skill.name,
      output,
      metadata: {},
    }
    // want-end: loop-tool-skill
  },
}))
