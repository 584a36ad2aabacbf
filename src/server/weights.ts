// The scalar reward of /get_reward: a weighted sum of the three reward components. The components
// themselves are never changed; only their combination is configurable.
import { REWARD_RANGES } from "../core/document/reward-ranges.js";
import type { ItemRewards } from "./score-items.js";

export interface RewardWeights {
  accuracy: number;
  format: number;
  coverage: number;
}

/** Equal weights: the components are summed as they are (see docs/serve.md for why). */
export const DEFAULT_WEIGHTS: Readonly<RewardWeights> = { accuracy: 1, format: 1, coverage: 1 };

const NAMES: Readonly<Record<string, keyof RewardWeights>> = {
  accuracy: "accuracy",
  format: "format",
  coverage: "coverage",
  reference_coverage: "coverage",
};

/**
 * `accuracy=1,format=0.5,coverage=0`: each named weight replaces its default (1); a name may appear
 * once. Returns an error message instead of throwing so the caller picks the error type.
 */
export function parseWeights(text: string): RewardWeights | { error: string } {
  const weights: RewardWeights = { ...DEFAULT_WEIGHTS };
  const seen = new Set<keyof RewardWeights>();
  for (const part of text.split(",")) {
    const m = /^\s*([a-z_]+)\s*=\s*(\S+)\s*$/.exec(part);
    const name = m ? NAMES[m[1]!] : undefined;
    if (!m || name === undefined) {
      return { error: `--weights "${text}": expected NAME=NUMBER,… with NAME one of accuracy, format, coverage` };
    }
    const value = Number(m[2]);
    if (!Number.isFinite(value)) return { error: `--weights "${text}": ${m[1]} must be a finite number` };
    if (seen.has(name)) return { error: `--weights "${text}": ${name} is given twice` };
    seen.add(name);
    weights[name] = value;
  }
  const { low, high } = rewardBounds(weights);
  if (!Number.isFinite(low) || !Number.isFinite(high))
    return { error: `--weights "${text}": the weighted reward would overflow (weights this large give no finite reward)` };
  return weights;
}

export function weightedReward(r: ItemRewards, w: RewardWeights): number {
  return w.accuracy * r.accuracy + w.format * r.format + w.coverage * r.reference_coverage;
}

/** The components' ranges (core/document/rewards.ts). */
const COMPONENT_RANGES: Readonly<Record<keyof RewardWeights, readonly [number, number]>> = {
  accuracy: REWARD_RANGES.accuracy,
  format: REWARD_RANGES.format,
  coverage: REWARD_RANGES.referenceCoverage,
};

/** The least and the greatest weighted reward the weights allow. */
export function rewardBounds(w: RewardWeights): { low: number; high: number } {
  let low = 0;
  let high = 0;
  for (const name of ["accuracy", "format", "coverage"] as const) {
    const [a, b] = COMPONENT_RANGES[name];
    low += Math.min(w[name] * a, w[name] * b);
    high += Math.max(w[name] * a, w[name] * b);
  }
  return { low, high };
}

/**
 * The weighted reward mapped affinely onto [0, 1] by the weights' bounds, `(r − low) / (high − low)`
 * (OpenRLHF reads `scores` as a 0–1 value); 0 when every weight is 0.
 */
export function unitScore(reward: number, bounds: { low: number; high: number }): number {
  const span = bounds.high - bounds.low;
  if (!(span > 0)) return 0;
  return Math.min(1, Math.max(0, (reward - bounds.low) / span));
}
