// want-start: max-steps-text
export const MAX_STEPS_PROMPT = `LAST STEP

No more tools. Say what is done and what is left.`
// want-end: max-steps-text

export const OTHER_PROMPT = `Not the notice.`
