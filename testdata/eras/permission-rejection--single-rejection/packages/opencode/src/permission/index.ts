export namespace Permission {
  export function ask(input: { sessionID: string }) {
    return input.sessionID
  }

  // want-start: permission-rejection single-rejection
  export class RejectedError extends Error {
    constructor(
      public readonly sessionID: string,
      public readonly permissionID: string,
      public readonly reason?: string,
    ) {
      super(reason !== undefined ? reason : `Refused by the person at the keyboard; change something and retry.`)
    }
  }
  // want-end: permission-rejection
}
