// Seeded percentile bootstrap for the headline macro-F1 (SPEC §1.4): resample the slice's cases
// with replacement B times; in each resample, compute every run's macro-F1 on the same resampled
// cases and average over runs (the headline is the mean over runs); the interval is the 2.5th and
// 97.5th percentiles of those B values (linear interpolation between order statistics, numpy's
// default). Resample b draws from its own PRNG stream seeded from (seed, b), so the result depends
// only on (outcomes, seed, B), never on chunking or worker count.
//
// Cost: O(B · (n + R · m)) where m ≤ n is the number of distinct cases drawn (≈ 0.63 n).
import { macroF1 } from "./binary.js";
import { createPrng } from "./prng.js";

/** Outcome code of one (case, run): 2·label + judgment (0 = tn, 1 = fp, 2 = fn, 3 = tp). */
export function outcomeCode(label: boolean, judgment: boolean): number {
  return (label ? 2 : 0) + (judgment ? 1 : 0);
}

export interface BootstrapInterval {
  low: number;
  high: number;
  seed: number;
  resamples: number;
  n: number;
}

/** Percentile of sorted values, linear interpolation (q in [0, 1]). */
export function percentile(sorted: Float64Array | readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * `labels[i]` is case i's gold label; `runs[r][i]` its outcome code in run r (every run covers
 * every case: a missing prediction scores negative).
 */
export function bootstrapMacroF1(
  labels: Uint8Array,
  runs: readonly Uint8Array[],
  seed: number,
  resamples: number,
): BootstrapInterval {
  const n = labels.length;
  if (n === 0 || runs.length === 0 || resamples <= 0) return { low: 0, high: 0, seed, resamples, n };
  const weights = new Uint32Array(n);
  const drawn = new Int32Array(n);
  const values = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    const prng = createPrng(seed, b);
    weights.fill(0);
    let distinct = 0;
    let positives = 0;
    for (let k = 0; k < n; k++) {
      const i = prng.nextBelow(n);
      if (weights[i] === 0) drawn[distinct++] = i;
      weights[i]!++;
      positives += labels[i]!;
    }
    const negatives = n - positives;
    let total = 0;
    for (const codes of runs) {
      let tp = 0;
      let fp = 0;
      for (let k = 0; k < distinct; k++) {
        const i = drawn[k]!;
        const code = codes[i]!;
        if (code === 3) tp += weights[i]!;
        else if (code === 1) fp += weights[i]!;
      }
      total += macroF1({ tp, fp, fn: positives - tp, tn: negatives - fp });
    }
    values[b] = total / runs.length;
  }
  values.sort();
  return { low: percentile(values, 0.025), high: percentile(values, 0.975), seed, resamples, n };
}
