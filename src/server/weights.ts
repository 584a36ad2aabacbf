// The scalar reward of /get_reward: a weighted sum of the three reward components. The components
// themselves are never changed; only their combination is configurable.
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
  return weights;
}

export function weightedReward(r: ItemRewards, w: RewardWeights): number {
  return w.accuracy * r.accuracy + w.format * r.format + w.coverage * r.reference_coverage;
}
