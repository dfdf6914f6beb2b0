export * as PermissionV1 from "./permission"

import { Schema } from "effect"

// want-start: permission-rejection error-classes
export class RejectedError extends Schema.TaggedErrorClass<RejectedError>()("SyntheticRejected", {}) {
  override get message() {
    return "Refused by the person at the keyboard."
  }
}

export class CorrectedError extends Schema.TaggedErrorClass<CorrectedError>()("SyntheticCorrected", {
  feedback: Schema.String,
}) {
  override get message() {
    return `Refused, with a note: ${this.feedback}`
  }
}

export class DeniedError extends Schema.TaggedErrorClass<DeniedError>()("SyntheticDenied", {
  ruleset: Schema.Any,
}) {
  override get message() {
    return `A configured rule forbids this call: ${JSON.stringify(this.ruleset)}`
  }
}
// want-end: permission-rejection

export class NotFoundError extends Schema.TaggedErrorClass<NotFoundError>()("SyntheticNotFound", {}) {}
