// Seeded percentile bootstrap for the headline macro-F1 (SPEC §1.4): resample the slice's cases
// with replacement B times; in each resample, compute every run's macro-F1 on the same resampled
// cases and average over runs (the headline is the mean over runs); the interval is the 2.5th and
// 97.5th percentiles of those B values (linear interpolation between order statistics, numpy's
// default). Resample b draws from its own PRNG stream seeded from (seed, b), so the result depends
// only on (outcomes, seed, B), never on chunking or worker count.
//
// Cost: O(B · (n + R · m / k)) where m ≤ n is the number of distinct cases drawn (≈ 0.63 n) and k
// the runs packed per float64 (5 at 891 cases): about 1.3·10⁸ multiply-adds at 1,123 runs × 891
// cases × B = 1000.
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

/** Float64 holds every integer below 2^53 exactly: the room for packed counters. */
const EXACT_BITS = 53;

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
  const codes = new Uint8Array(n * runs.length);
  runs.forEach((run, r) => codes.set(run, r * n));
  return percentileInterval(bootstrapMacroF1Values(labels, codes, runs.length, seed, 0, resamples), seed, resamples, n);
}

/** The 2.5th and 97.5th percentiles of the resample values (all B of them, in any order). */
export function percentileInterval(values: Float64Array, seed: number, resamples: number, n: number): BootstrapInterval {
  if (values.length === 0) return { low: 0, high: 0, seed, resamples, n };
  const sorted = Float64Array.from(values).sort();
  return { low: percentile(sorted, 0.025), high: percentile(sorted, 0.975), seed, resamples, n };
}

/**
 * The headline macro-F1 of resamples b = from … to − 1. `codes` holds the outcome codes run-major
 * (run r's case i at r · n + i). The inner loop runs over a case-major copy, contiguous per case,
 * which is what makes hundreds of runs affordable. Blocks of resamples can be computed anywhere
 * (e.g. in pool workers) and concatenated: each resample only depends on (seed, b).
 */
export function bootstrapMacroF1Values(
  labels: Uint8Array,
  codes: Uint8Array,
  runCount: number,
  seed: number,
  from: number,
  to: number,
): Float64Array {
  const n = labels.length;
  const R = runCount;
  const values = new Float64Array(Math.max(0, to - from));
  if (n === 0 || R === 0 || to <= from) return values;
  // tp of a run sums the weights of gold positives judged positive, fp those of gold negatives
  // judged positive: one "judged positive" indicator per (case, run), summed separately over the
  // two gold classes. Indicators of `perSlot` runs share one float64 as fields of `bits` bits (a
  // field's sum is at most n < 2^bits, and the whole sum stays below 2^53, so it is exact): at
  // 891 cases, five runs per multiply-add.
  let bits = 1;
  while (2 ** bits <= n) bits++;
  const perSlot = Math.floor(EXACT_BITS / bits);
  if (perSlot < 2) return bootstrapUnpacked(labels, codes, R, seed, from, to);
  const field = 2 ** bits;
  const slots = Math.ceil(R / perSlot);
  const byCase = new Float64Array(n * slots);
  for (let r = 0; r < R; r++) {
    const base = r * n;
    const scale = field ** (r % perSlot);
    const q = Math.floor(r / perSlot);
    for (let i = 0; i < n; i++) if (codes[base + i]! & 1) byCase[i * slots + q]! += scale;
  }
  const weights = new Uint32Array(n);
  const drawn = new Int32Array(n);
  const accPositive = new Float64Array(slots);
  const accNegative = new Float64Array(slots);
  for (let b = from; b < to; b++) {
    const draw = drawResample(labels, seed, b, weights, drawn);
    accPositive.fill(0);
    accNegative.fill(0);
    for (let k = 0; k < draw.distinct; k++) {
      const i = drawn[k]!;
      const w = weights[i]!;
      const row = i * slots;
      const acc = labels[i] ? accPositive : accNegative;
      for (let q = 0; q < slots; q++) acc[q]! += w * byCase[row + q]!;
    }
    let total = 0;
    for (let q = 0; q < slots; q++) {
      let x = accPositive[q]!;
      let y = accNegative[q]!;
      for (let f = 0; f < perSlot && q * perSlot + f < R; f++) {
        const tp = x % field;
        x = (x - tp) / field;
        const fp = y % field;
        y = (y - fp) / field;
        total += macroF1({ tp, fp, fn: draw.positives - tp, tn: n - draw.positives - fp });
      }
    }
    values[b - from] = total / R;
  }
  return values;
}

/** Resample b: case multiplicities, the distinct cases drawn, and the resample's positives. */
function drawResample(labels: Uint8Array, seed: number, b: number, weights: Uint32Array, drawn: Int32Array): { distinct: number; positives: number } {
  const n = labels.length;
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
  return { distinct, positives };
}

/**
 * The same computation with separate tp/fp counters: used for slices of ≥ 2^26 cases, and the
 * plain reference the packed loop is tested against.
 */
export function bootstrapUnpacked(labels: Uint8Array, codes: Uint8Array, R: number, seed: number, from: number, to: number): Float64Array {
  const n = labels.length;
  const weights = new Uint32Array(n);
  const drawn = new Int32Array(n);
  const values = new Float64Array(to - from);
  for (let b = from; b < to; b++) {
    const draw = drawResample(labels, seed, b, weights, drawn);
    let total = 0;
    for (let r = 0; r < R; r++) {
      let tp = 0;
      let fp = 0;
      for (let k = 0; k < draw.distinct; k++) {
        const i = drawn[k]!;
        const code = codes[r * n + i]!;
        if (code === 3) tp += weights[i]!;
        else if (code === 1) fp += weights[i]!;
      }
      total += macroF1({ tp, fp, fn: draw.positives - tp, tn: n - draw.positives - fp });
    }
    values[b - from] = total / R;
  }
  return values;
}
