// want-start: loop-prompt-texts-max-steps-prompt
export const MAX_STEPS_PROMPT = `LAST STEP

No more tools. Say what is done and what is left.`
// want-end: loop-prompt-texts-max-steps-prompt

export const OTHER_PROMPT = `Not the notice.`
