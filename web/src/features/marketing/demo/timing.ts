/** The demo moves to the next customer question about every 4 s ... */
export const DEMO_CYCLE_MS = 4000;
/** ... revealing question, live hint and e-mail draft in 1.5 s display steps. */
export const DEMO_STEP_MS = 1500;

/** 0: the customer's question, 1: the live hint, 2: the follow-up e-mail draft. */
export type DemoStep = 0 | 1 | 2;
export const LAST_STEP: DemoStep = 2;

/** Time from entering `step` until the demo moves on (to the next step, or the next question). */
export function delayAfter(step: DemoStep): number {
  return step < LAST_STEP ? DEMO_STEP_MS : DEMO_CYCLE_MS - LAST_STEP * DEMO_STEP_MS;
}
