// The range of each reward component (rewards.ts computes them), apart from the rewards' code: the
// server states the score bounds before it loads any scorer (a faster `mari serve` start).

/**
 * Each reward component's range, declared once: accuracy −1 (right "yes", no gold sentence cited)
 * … 2 (Equation 5), reference coverage (Equation 7) and format 0 … 1.
 */
export const REWARD_RANGES = {
  accuracy: [-1, 2],
  referenceCoverage: [0, 1],
  format: [0, 1],
} as const satisfies Record<string, readonly [number, number]>;
