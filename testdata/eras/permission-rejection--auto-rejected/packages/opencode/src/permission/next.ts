export namespace PermissionNext {
  export type Ruleset = { permission: string; action: string }[]

  // want-start: permission-rejection auto-rejected
  export class RejectedError extends Error {
    constructor() {
      super(`Refused by the person at the keyboard; change something and retry.`)
    }
  }

  export class AutoRejectedError extends Error {
    constructor(public readonly ruleset: Ruleset) {
      super(
        `A configured rule forbids this call: ${JSON.stringify(ruleset)}`,
      )
    }
  }
  // want-end: permission-rejection
}
