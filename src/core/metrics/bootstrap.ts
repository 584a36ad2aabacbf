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
// draws. Runs with identical outcomes are kept once, weighted. Cost: O(B · (G + G' · U / k)) for U
// distinct runs, G signature groups (at most min(n, 2^(U+1))), G' ≈ 0.63 · G of them drawn per
// resample, each adding its row of U counters packed k to a 32-bit lane (3 at 891 cases) in
// WebAssembly (bootstrap-sums.ts). At 8 runs × 37,500 cases, G ≤ 512.
import { macroF1 } from "./binary.js";
import { lowBitsKeys, unitsKey } from "./bits-key.js";
import { bootstrapSumsValues, MOST_COUNTER_BITS, type SignatureTable } from "./bootstrap-sums.js";
import { MultinomialDraws } from "./multinomial-draws.js";

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
 * Numbers keys[0 … count) in order of first appearance, counting each group's keys into sizes[g]
 * (room for a group per key); returns the first key's index of each group. The loop is all the
 * function does: code after a loop that V8 compiles on the fly has not run yet, and sent V8 back
 * to the interpreter.
 */
function groupKeys(keys: ArrayLike<string | number>, count: number, sizes: Float64Array): number[] {
  const index = new Map<string | number, number>();
  const first: number[] = [];
  for (let k = 0; k < count; k++) {
    const key = keys[k]!;
    let g = index.get(key);
    if (g === undefined) {
      g = first.length;
      index.set(key, g);
      first.push(k);
    }
    sizes[g]!++;
  }
  return first;
}

/** groupKeys of one-unit keys (signatures of up to 15 distinct runs), found by their value rather than through a Map. */
function groupUnits(keys: Uint16Array, sizes: Float64Array): number[] {
  const groupAt = new Int32Array(1 << 16);
  const first: number[] = [];
  for (let k = 0; k < keys.length; k++) {
    let g = groupAt[keys[k]!]! - 1;
    if (g < 0) {
      g = first.length;
      groupAt[keys[k]!] = g + 1;
      first.push(k);
    }
    sizes[g]!++;
  }
  return first;
}

/** Cases whose signatures are filled together (their units stay in cache across the runs). */
const SIGNATURE_BLOCK = 64;

/**
 * Each case's signature (bit 0 its label, bit u + 1 its judgment in distinct run u, whose codes
 * start at base[u]) as `width` 16-bit units, filled run by run within blocks of cases: reading the
 * codes case by case jumped n bytes per bit, and filling all cases run by run swept every
 * signature once per run. A call per block: with many runs, the loop over runs of the first block
 * was compiled on the fly before the loop over blocks had gone round, and that code dropped back to
 * the interpreter at the end of the block.
 */
function caseSignatures(labels: Uint8Array, codes: Uint8Array, base: readonly number[], width: number): Uint16Array {
  const n = labels.length;
  const signatures = new Uint16Array(n * width);
  for (let i0 = 0; i0 < n; i0 += SIGNATURE_BLOCK) signatureBlock(labels, codes, base, width, i0, Math.min(n, i0 + SIGNATURE_BLOCK), signatures);
  return signatures;
}

/** caseSignatures of cases i0 … i1 − 1. */
function signatureBlock(labels: Uint8Array, codes: Uint8Array, base: readonly number[], width: number, i0: number, i1: number, signatures: Uint16Array): void {
  for (let i = i0; i < i1; i++) signatures[i * width] = labels[i]!;
  for (let u = 0; u < base.length; u++) {
    const unit = (u + 1) >>> 4;
    const shift = (u + 1) & 15;
    for (let i = i0, at = base[u]!; i < i1; i++) signatures[i * width + unit]! |= (codes[at + i]! & 1) << shift;
  }
}

/** The signatures of `width` > 1 units as strings, one per case (unitsKey). */
function signatureKeys(signatures: Uint16Array, n: number, width: number): string[] {
  const keys: string[] = [];
  for (let i = 0; i < n; i++) keys.push(unitsKey(signatures, i * width, (i + 1) * width));
  return keys;
}

// Each step's loop in a function of its own, called once: in one function, each loop V8 compiled on
// the fly met the next one with no type feedback, and was compiled again (four times in all).
export function signatureTable(labels: Uint8Array, codes: Uint8Array, R: number): SignatureTable {
  const n = labels.length;
  const runSizes = new Float64Array(R);
  const runFirst = groupKeys(lowBitsKeys(codes, n, R), R, runSizes);
  const U = runFirst.length;
  const runWeights = runSizes.slice(0, U);
  const base = runFirst.map((r) => r * n);
  const width = (U + 16) >>> 4;
  const signatures = caseSignatures(labels, codes, base, width);
  const caseSizes = new Float64Array(n);
  const first = width === 1 ? groupUnits(signatures, caseSizes) : groupKeys(signatureKeys(signatures, n, width), n, caseSizes);
  const G = first.length;
  const table: SignatureTable = { groups: G, sizes: caseSizes.slice(0, G), labels: new Uint8Array(G), runs: U, runWeights, codes: new Uint8Array(U * G) };
  for (let g = 0; g < G; g++) table.labels[g] = labels[first[g]!]!;
  // Run by run, reading and writing along the rows: group by group jumped a row per run.
  for (let u = 0; u < U; u++) {
    for (let g = 0, from = base[u]!, to = u * G; g < G; g++) table.codes[to + g] = codes[from + first[g]!]!;
  }
  return table;
}

/**
 * The headline macro-F1 of resamples b = from … to − 1. `codes` holds the outcome codes run-major
 * (run r's case i at r · n + i). Cases with the same signature are interchangeable, so a resample
 * is drawn as the multinomial counts of the signatures (binomial.ts), exactly the distribution of
 * n case draws with replacement, at O(groups) instead of O(n) per resample. The resamples' sums
 * run in WebAssembly over rows packing many runs' counters (bootstrap-sums.ts), which is what
 * makes hundreds of runs affordable. Blocks of resamples can be computed anywhere (e.g. in pool
 * workers) and concatenated: each resample only depends on (seed, b).
 */
export function bootstrapMacroF1Values(labels: Uint8Array, codes: Uint8Array, runCount: number, seed: number, from: number, to: number): Float64Array {
  const n = labels.length;
  const R = runCount;
  if (n === 0 || R === 0 || to <= from) return new Float64Array(Math.max(0, to - from));
  const table = signatureTable(labels, codes, R);
  // A run's tp and fp count at most n draws each: counters of `bits` bits.
  let bits = 1;
  while (2 ** bits <= n) bits++;
  if (bits > MOST_COUNTER_BITS) return bootstrapUnpacked(table, n, seed, from, to);
  return bootstrapSumsValues(table, n, R, bits, seed, from, to);
}

/**
 * Resample b: how many of the n draws fall in each signature group (`draws.counts`, valid at the
 * `distinct` indices listed in `draws.drawn`), and the resample's gold positives.
 */
export function drawResample(table: SignatureTable, n: number, seed: number, b: number, draws: MultinomialDraws): { distinct: number; positives: number } {
  const distinct = draws.draw(seed, b, n);
  const weights = draws.counts;
  const drawn = draws.drawn;
  let positives = 0;
  for (let k = 0; k < distinct; k++) if (table.labels[drawn[k]!]) positives += weights[drawn[k]!]!;
  return { distinct, positives };
}

/**
 * The same computation with separate tp/fp counters: used for slices of 2^31 cases or more, and the
 * plain reference the packed loop is tested against.
 */
export function bootstrapUnpacked(table: SignatureTable, n: number, seed: number, from: number, to: number): Float64Array {
  const G = table.groups;
  let R = 0;
  for (const w of table.runWeights) R += w;
  const draws = new MultinomialDraws(table.sizes);
  const weights = draws.counts;
  const drawn = draws.drawn;
  const values = new Float64Array(to - from);
  for (let b = from; b < to; b++) {
    const draw = drawResample(table, n, seed, b, draws);
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
