// Seeded percentile bootstrap for the headline macro-F1 (docs/eval.md, "Metrics"): resample the slice's cases
// with replacement B times; in each resample, compute every run's macro-F1 on the same resampled
// cases and average over runs (the headline is the mean over runs); the interval is the 2.5th and
// 97.5th percentiles of those B values (linear interpolation between order statistics, numpy's
// default). Resample b draws from its own PRNG stream seeded from (seed, b), so the result depends
// only on (outcomes, seed, B), never on chunking or worker count.
//
// Method "signature-multinomial" (report.json `ci.macro_f1.resampling`): cases with the same
// outcome signature (gold label and every run's judgment) are interchangeable, so a resample draws
// the signatures' multinomial counts directly (binomial.ts): the same distribution as n case
// draws. Runs with identical outcomes are kept once, weighted. Cost: O(B · (G + U · G' / k)) for U
// distinct runs, G signature groups (at most min(n, 2^(U+1))), G' ≤ G of
// them drawn, k runs packed per float64 (5 at 891 cases). At 8 runs × 37,500 cases, G ≤ 512.
import { macroF1 } from "./binary.js";
import { InversionPowers, multinomialCounts } from "./binomial.js";
import { bitsKey, unitsKey } from "./bits-key.js";
import { createPrng } from "./prng.js";

/** Outcome code of one (case, run): 2·label + judgment (0 = tn, 1 = fp, 2 = fn, 3 = tp). */
export function outcomeCode(label: boolean, judgment: boolean): number {
  return (label ? 2 : 0) + (judgment ? 1 : 0);
}

/** How resamples are drawn, as recorded in report.json (`ci.macro_f1.resampling`). */
export const BOOTSTRAP_RESAMPLING = "signature-multinomial";

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
export function bootstrapMacroF1(labels: Uint8Array, runs: readonly Uint8Array[], seed: number, resamples: number): BootstrapInterval {
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
 * Runs with the same outcome on every case have the same macro-F1 in every resample: they are
 * kept once, as a distinct run u with `runWeights[u]` copies (in order of their first run). Cases
 * are then grouped by outcome signature (gold label and every distinct run's outcome): group g has
 * `sizes[g]` cases, gold label `labels[g]` and outcome codes `codes[u · groups + g]`. Groups are
 * numbered in order of their first case, so the table depends only on the outcomes.
 */
export interface SignatureTable {
  groups: number;
  sizes: Float64Array;
  labels: Uint8Array;
  /** Distinct runs. */
  runs: number;
  runWeights: Float64Array;
  codes: Uint8Array;
}

/** Numbers items 0 … count − 1 by key, in order of first appearance: { of each item, first item of each }. */
function groupByKey(count: number, keyOf: (k: number) => string | number): { groupOf: Int32Array; first: number[] } {
  const index = new Map<string | number, number>();
  const groupOf = new Int32Array(count);
  const first: number[] = [];
  for (let k = 0; k < count; k++) {
    const key = keyOf(k);
    let g = index.get(key);
    if (g === undefined) {
      g = first.length;
      index.set(key, g);
      first.push(k);
    }
    groupOf[k] = g;
  }
  return { groupOf, first };
}

export function signatureTable(labels: Uint8Array, codes: Uint8Array, R: number): SignatureTable {
  const n = labels.length;
  const runGroups = groupByKey(R, (r) => bitsKey(n, (i) => codes[r * n + i]! & 1));
  const U = runGroups.first.length;
  const runWeights = new Float64Array(U);
  for (let r = 0; r < R; r++) runWeights[runGroups.groupOf[r]!]!++;
  const base = runGroups.first.map((r) => r * n);
  // Each case's signature (bit 0 its label, bit u + 1 its judgment in distinct run u) as 16-bit
  // units, filled run by run: reading the codes case by case jumped n bytes per bit.
  const width = (U + 16) >>> 4;
  const signatures = new Uint16Array(n * width);
  for (let i = 0; i < n; i++) signatures[i * width] = labels[i]!;
  for (let u = 0; u < U; u++) {
    const unit = (u + 1) >>> 4;
    const mask = 1 << ((u + 1) & 15);
    for (let i = 0, at = base[u]!; i < n; i++) if (codes[at + i]! & 1) signatures[i * width + unit]! |= mask;
  }
  const caseGroups = groupByKey(n, (i) => (width === 1 ? signatures[i]! : unitsKey(signatures, i * width, (i + 1) * width)));
  const G = caseGroups.first.length;
  const table: SignatureTable = { groups: G, sizes: new Float64Array(G), labels: new Uint8Array(G), runs: U, runWeights, codes: new Uint8Array(U * G) };
  for (let i = 0; i < n; i++) table.sizes[caseGroups.groupOf[i]!]!++;
  caseGroups.first.forEach((i, g) => {
    table.labels[g] = labels[i]!;
    for (let u = 0; u < U; u++) table.codes[u * G + g] = codes[base[u]! + i]!;
  });
  return table;
}

/**
 * The headline macro-F1 of resamples b = from … to − 1. `codes` holds the outcome codes run-major
 * (run r's case i at r · n + i). Cases with the same signature are interchangeable, so a resample
 * is drawn as the multinomial counts of the signatures (binomial.ts), exactly the distribution of
 * n case draws with replacement, at O(groups) instead of O(n) per resample. The inner loop runs
 * over a group-major copy, contiguous per group, which is what makes hundreds of runs affordable.
 * Blocks of resamples can be computed anywhere (e.g. in pool workers) and concatenated: each
 * resample only depends on (seed, b).
 */
export function bootstrapMacroF1Values(labels: Uint8Array, codes: Uint8Array, runCount: number, seed: number, from: number, to: number): Float64Array {
  const n = labels.length;
  const R = runCount;
  const values = new Float64Array(Math.max(0, to - from));
  if (n === 0 || R === 0 || to <= from) return values;
  const table = signatureTable(labels, codes, R);
  // tp of a run sums the weights of gold positives judged positive, fp those of gold negatives
  // judged positive: one "judged positive" indicator per (group, run), summed separately over the
  // two gold classes. Indicators of `perSlot` runs share one float64 as fields of `bits` bits (a
  // field's sum is at most n < 2^bits, and the whole sum stays below 2^53, so it is exact): at
  // 891 cases, five runs per multiply-add.
  let bits = 1;
  while (2 ** bits <= n) bits++;
  const perSlot = Math.floor(EXACT_BITS / bits);
  if (perSlot < 2) return bootstrapUnpacked(table, n, seed, from, to);
  const G = table.groups;
  const U = table.runs;
  const field = 2 ** bits;
  const slots = Math.ceil(U / perSlot);
  const byGroup = new Float64Array(G * slots);
  for (let u = 0; u < U; u++) {
    const base = u * G;
    const scale = field ** (u % perSlot);
    const q = Math.floor(u / perSlot);
    for (let g = 0; g < G; g++) if (table.codes[base + g]! & 1) byGroup[g * slots + q]! += scale;
  }
  const weights = new Float64Array(G);
  const drawn = new Int32Array(G);
  const powers = new InversionPowers(G);
  const accPositive = new Float64Array(slots);
  const accNegative = new Float64Array(slots);
  const drawnPositive = new Int32Array(G);
  const drawnNegative = new Int32Array(G);
  for (let b = from; b < to; b++) {
    const draw = drawResample(table, n, seed, b, weights, drawn, powers);
    let positives = 0;
    let negatives = 0;
    for (let k = 0; k < draw.distinct; k++) {
      const g = drawn[k]!;
      if (table.labels[g]) drawnPositive[positives++] = g;
      else drawnNegative[negatives++] = g;
    }
    addWeightedRows(accPositive, byGroup, slots, weights, drawnPositive, positives);
    addWeightedRows(accNegative, byGroup, slots, weights, drawnNegative, negatives);
    let total = 0;
    for (let q = 0; q < slots; q++) {
      let x = accPositive[q]!;
      let y = accNegative[q]!;
      for (let f = 0; f < perSlot && q * perSlot + f < U; f++) {
        // Dividing by a power of two is exact: these are x % field and y % field without fmod.
        const xHigh = Math.floor(x / field);
        const yHigh = Math.floor(y / field);
        const tp = x - xHigh * field;
        const fp = y - yHigh * field;
        x = xHigh;
        y = yHigh;
        total += table.runWeights[q * perSlot + f]! * macroF1({ tp, fp, fn: draw.positives - tp, tn: n - draw.positives - fp });
      }
    }
    values[b - from] = total / R;
  }
  return values;
}

/**
 * acc = Σ weights[g] · rows[g] over the `count` groups listed, each row `slots` packed counters.
 * Every term and partial sum is an integer below 2^53 (see bootstrapMacroF1Values), so the sum is
 * exact in any order: four rows are added per pass over the accumulator, which reads and writes
 * it a quarter as often.
 */
function addWeightedRows(acc: Float64Array, rows: Float64Array, slots: number, weights: Float64Array, groups: Int32Array, count: number): void {
  acc.fill(0);
  let k = 0;
  for (; k + 4 <= count; k += 4) {
    const a = groups[k]!;
    const b = groups[k + 1]!;
    const c = groups[k + 2]!;
    const d = groups[k + 3]!;
    const wa = weights[a]!;
    const wb = weights[b]!;
    const wc = weights[c]!;
    const wd = weights[d]!;
    const ra = a * slots;
    const rb = b * slots;
    const rc = c * slots;
    const rd = d * slots;
    for (let q = 0; q < slots; q++) acc[q]! += wa * rows[ra + q]! + wb * rows[rb + q]! + wc * rows[rc + q]! + wd * rows[rd + q]!;
  }
  for (; k < count; k++) {
    const g = groups[k]!;
    const w = weights[g]!;
    const row = g * slots;
    for (let q = 0; q < slots; q++) acc[q]! += w * rows[row + q]!;
  }
}

/**
 * Resample b: how many of the n draws fall in each signature group (`weights`, valid at the
 * `distinct` indices listed in `drawn`), and the resample's gold positives.
 */
export function drawResample(
  table: SignatureTable,
  n: number,
  seed: number,
  b: number,
  weights: Float64Array,
  drawn: Int32Array,
  /** Powers remembered from the resamples drawn before from this table. */
  powers?: InversionPowers,
): { distinct: number; positives: number } {
  const distinct = multinomialCounts(createPrng(seed, b), table.sizes, n, weights, drawn, powers);
  let positives = 0;
  for (let k = 0; k < distinct; k++) if (table.labels[drawn[k]!]) positives += weights[drawn[k]!]!;
  return { distinct, positives };
}

/**
 * The same computation with separate tp/fp counters: used for slices of ≥ 2^26 cases, and the
 * plain reference the packed loop is tested against.
 */
export function bootstrapUnpacked(table: SignatureTable, n: number, seed: number, from: number, to: number): Float64Array {
  const G = table.groups;
  let R = 0;
  for (const w of table.runWeights) R += w;
  const weights = new Float64Array(G);
  const drawn = new Int32Array(G);
  const powers = new InversionPowers(G);
  const values = new Float64Array(to - from);
  for (let b = from; b < to; b++) {
    const draw = drawResample(table, n, seed, b, weights, drawn, powers);
    let total = 0;
    for (let u = 0; u < table.runs; u++) {
      let tp = 0;
      let fp = 0;
      for (let k = 0; k < draw.distinct; k++) {
        const g = drawn[k]!;
        const code = table.codes[u * G + g]!;
        if (code === 3) tp += weights[g]!;
        else if (code === 1) fp += weights[g]!;
      }
      total += table.runWeights[u]! * macroF1({ tp, fp, fn: draw.positives - tp, tn: n - draw.positives - fp });
    }
    values[b - from] = total / R;
  }
  return values;
}
