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
// distinct runs, G signature groups (at most min(n, 2^(U+1))), G' ≈ 0.36 · G row additions (the
// drawn groups' rows are added through subset sums of blocks of five groups, bit plane by bit plane
// of their weights: WeightedRows), k runs packed per float64 (5 at 891 cases). At 8 runs × 37,500
// cases, G ≤ 512.
import { macroF1 } from "./binary.js";
import { lowBitsKey, unitsKey } from "./bits-key.js";
import { MultinomialDraws } from "./multinomial-draws.js";
import { SubsetSums } from "./subset-sums.js";

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

/** Cases whose signatures are filled together (their units stay in cache across the runs). */
const SIGNATURE_BLOCK = 64;

export function signatureTable(labels: Uint8Array, codes: Uint8Array, R: number): SignatureTable {
  const n = labels.length;
  const runGroups = groupByKey(R, (r) => lowBitsKey(codes, r * n, n));
  const U = runGroups.first.length;
  const runWeights = new Float64Array(U);
  for (let r = 0; r < R; r++) runWeights[runGroups.groupOf[r]!]!++;
  const base = runGroups.first.map((r) => r * n);
  // Each case's signature (bit 0 its label, bit u + 1 its judgment in distinct run u) as 16-bit
  // units, filled run by run within blocks of cases: reading the codes case by case jumped n bytes
  // per bit, and filling all cases run by run swept every signature once per run.
  const width = (U + 16) >>> 4;
  const signatures = new Uint16Array(n * width);
  for (let i = 0; i < n; i++) signatures[i * width] = labels[i]!;
  for (let i0 = 0; i0 < n; i0 += SIGNATURE_BLOCK) {
    const i1 = Math.min(n, i0 + SIGNATURE_BLOCK);
    for (let u = 0; u < U; u++) {
      const unit = (u + 1) >>> 4;
      const shift = (u + 1) & 15;
      for (let i = i0, at = base[u]!; i < i1; i++) signatures[i * width + unit]! |= (codes[at + i]! & 1) << shift;
    }
  }
  const caseGroups = groupByKey(n, (i) => (width === 1 ? signatures[i]! : unitsKey(signatures, i * width, (i + 1) * width)));
  const G = caseGroups.first.length;
  const table: SignatureTable = { groups: G, sizes: new Float64Array(G), labels: new Uint8Array(G), runs: U, runWeights, codes: new Uint8Array(U * G) };
  for (let i = 0; i < n; i++) table.sizes[caseGroups.groupOf[i]!]!++;
  caseGroups.first.forEach((i, g) => (table.labels[g] = labels[i]!));
  // Run by run, reading and writing along the rows: group by group jumped a row per run.
  for (let u = 0; u < U; u++) {
    for (let g = 0, from = base[u]!, to = u * G; g < G; g++) table.codes[to + g] = codes[from + caseGroups.first[g]!]!;
  }
  return table;
}

/**
 * The headline macro-F1 of resamples b = from … to − 1. `codes` holds the outcome codes run-major
 * (run r's case i at r · n + i). Cases with the same signature are interchangeable, so a resample
 * is drawn as the multinomial counts of the signatures (binomial.ts), exactly the distribution of
 * n case draws with replacement, at O(groups) instead of O(n) per resample. The inner loop adds
 * packed rows of many runs at once (WeightedRows), which is what makes hundreds of runs affordable.
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
  // 891 cases, five runs per addition (SubsetRows).
  let bits = 1;
  while (2 ** bits <= n) bits++;
  const perSlot = Math.floor(EXACT_BITS / bits);
  if (perSlot < 2) return bootstrapUnpacked(table, n, seed, from, to);
  const U = table.runs;
  const field = 2 ** bits;
  const slots = Math.ceil(U / perSlot);
  const subsets = new WeightedRows(table, field, perSlot, slots);
  const perField = 1 / field;
  const runWeights = table.runWeights;
  const draws = new MultinomialDraws(table.sizes);
  const accPositive = new Float64Array(slots);
  const accNegative = new Float64Array(slots);
  for (let b = from; b < to; b++) {
    const draw = drawResample(table, n, seed, b, draws);
    subsets.sum(draws.counts, draws.drawn, draw.distinct, accPositive, accNegative);
    let total = 0;
    const positives = draw.positives;
    for (let q = 0, u = 0; q < slots; q++) {
      let x = accPositive[q]!;
      let y = accNegative[q]!;
      for (const last = Math.min(U, u + perSlot); u < last; u++) {
        // Multiplying by a power of two is exact: these are x % field and y % field without fmod.
        const xHigh = Math.floor(x * perField);
        const yHigh = Math.floor(y * perField);
        const tp = x - xHigh * field;
        const fp = y - yHigh * field;
        x = xHigh;
        y = yHigh;
        total += runWeights[u]! * macroF1({ tp, fp, fn: positives - tp, tn: n - positives - fp });
      }
    }
    values[b - from] = total / R;
  }
  return values;
}

/** Float64 entries the subset rows may take (32 MB); past it, blocks get fewer groups. */
const SUBSET_ENTRIES = 1 << 22;

/**
 * Whether adding each drawn group's row times its weight costs less than the subset path, by an
 * estimate per group of expected weight s (its size: n draws over n cases): the direct path adds
 * the group's row of `slots` floats when it is drawn at all (probability 1 − e^−s); the subset path
 * marks it in ⌊log2 s⌋ + 1 bit planes and adds, per plane, a share 1 / k of its block's row. A few
 * groups drawn tens of times each (8 samples a document) favour the first; groups of a case or two,
 * or many slots (hundreds of runs), the second.
 */
function directIsCheaper(sizes: Float64Array, slots: number, k: number): boolean {
  let direct = 0;
  let subset = 0;
  for (const size of sizes) {
    direct += slots * (1 - Math.exp(-size));
    subset += (32 - Math.clz32(size)) * (1 + slots / k);
  }
  return direct < subset;
}

/**
 * The packed "judged positive" rows of the signature groups (one float64 per `perSlot` runs) as
 * subset sums (subset-sums.ts): the groups of each gold class are cut into blocks. A resample's
 * acc = Σ weights[g] · row(g) is added bit plane by bit plane of the weights: per plane, each
 * block adds the one stored row of its groups whose weight has that bit set, with no
 * multiplication. At 891 cases (weights mostly 0, 1 or 2) that is about 0.36 row additions per
 * group instead of 0.63 multiply-adds. Every field of every partial sum counts at most n draws
 * (< field), so all sums are integers below 2^53: the counters are those of the plain weighted sum.
 */
class WeightedRows {
  private readonly subsets: SubsetSums;
  /** Whether each drawn group's row is added times its weight (one group a block, no subsets). */
  private readonly direct: boolean;
  /** Gold label of each group, and the offset of its own row (the direct path's). */
  private readonly labels: Uint8Array;
  private readonly rowOf: Int32Array;
  /** Blocks below this hold gold-positive groups, the rest gold-negative ones. */
  private readonly positiveBlocks: number;
  private readonly blockOf: Int32Array;
  /** The bit of each group in its block's subset masks. */
  private readonly bitOf: Int32Array;
  /** Per weight bit plane and block, the subset mask of the drawn groups (zero between resamples). */
  private masks: Int32Array;
  /** Row offsets to add, and one plane's sum. */
  private readonly picked: Int32Array;
  private readonly plane: Float64Array;

  constructor(table: SignatureTable, field: number, perSlot: number, slots: number) {
    const G = table.groups;
    let positives = 0;
    for (let g = 0; g < G; g++) positives += table.labels[g]!;
    const blocksOf = (k: number): number => Math.ceil(positives / k) + Math.ceil((G - positives) / k);
    const blockItems = SubsetSums.blockItemsWithin(blocksOf, slots, SUBSET_ENTRIES);
    this.direct = directIsCheaper(table.sizes, slots, blockItems);
    this.labels = table.labels;
    const k = this.direct ? 1 : blockItems;
    this.positiveBlocks = Math.ceil(positives / k);
    const subsets = new SubsetSums(blocksOf(k), k, slots);
    this.subsets = subsets;
    this.blockOf = new Int32Array(G);
    this.bitOf = new Int32Array(G);
    const members = [0, 0];
    const singleOf = new Int32Array(G);
    this.rowOf = singleOf;
    for (let g = 0; g < G; g++) {
      const negative = table.labels[g] ? 0 : 1;
      const block = negative * this.positiveBlocks + Math.floor(members[negative]! / k);
      this.blockOf[g] = block;
      this.bitOf[g] = 1 << (members[negative]! % k);
      members[negative]!++;
      singleOf[g] = subsets.at(block, this.bitOf[g]!);
    }
    const words = (G + 31) >>> 5;
    const judged = new Uint32Array(table.runs * words);
    for (let u = 0; u < table.runs; u++) for (let g = 0, at = u * G; g < G; g++) judged[u * words + (g >>> 5)]! |= (table.codes[at + g]! & 1) << (g & 31);
    subsets.fillSingles(judged, words, table.runs, G, field, perSlot, (g) => singleOf[g]!);
    subsets.completeSubsets();
    this.masks = new Int32Array(subsets.blocks);
    this.picked = new Int32Array(subsets.blocks);
    this.plane = new Float64Array(slots);
  }

  /** accPositive, accNegative = Σ weights[g] · row(g) over the `count` groups listed in `drawn`, by gold class. */
  sum(weights: Float64Array, drawn: Int32Array, count: number, accPositive: Float64Array, accNegative: Float64Array): void {
    if (this.direct) {
      this.sumDirect(weights, drawn, count, accPositive, accNegative);
      return;
    }
    const blocks = this.subsets.blocks;
    let planes = 0;
    for (let k = 0; k < count; k++) {
      const g = drawn[k]!;
      // A weight is at most n < 2^26 (the packed path's bound), so it is an int32.
      const w = weights[g]! | 0;
      while (w >>> planes !== 0) planes++;
      if (this.masks.length < planes * blocks) this.masks = grownMasks(this.masks, planes * blocks);
      const block = this.blockOf[g]!;
      const bit = this.bitOf[g]!;
      for (let p = 0, rest = w; rest !== 0; p++, rest >>>= 1) if (rest & 1) this.masks[p * blocks + block]! |= bit;
    }
    accPositive.fill(0);
    accNegative.fill(0);
    const { masks, picked, plane, subsets } = this;
    // Per plane and gold class (blocks below positiveBlocks, then the rest): acc += 2^plane · Σ
    // the rows the blocks' masks pick (masks are cleared for the next resample).
    for (let at = 0, scale = 1; at < planes * blocks; at += blocks, scale *= 2) {
      for (let from = 0, to = this.positiveBlocks, acc = accPositive; from < blocks; from = to, to = blocks, acc = accNegative) {
        let count = 0;
        for (let block = from; block < to; block++) {
          const mask = masks[at + block]!;
          if (mask === 0) continue;
          masks[at + block] = 0;
          picked[count++] = subsets.at(block, mask);
        }
        if (count === 0) continue;
        subsets.sum(picked, count, plane, 0, subsets.slots);
        for (let q = 0; q < subsets.slots; q++) acc[q]! += scale * plane[q]!;
      }
    }
  }

  /** The same sums, each drawn group's row times its weight: every product and sum is an integer below 2^53, so exact. */
  private sumDirect(weights: Float64Array, drawn: Int32Array, count: number, accPositive: Float64Array, accNegative: Float64Array): void {
    accPositive.fill(0);
    accNegative.fill(0);
    const { subsets, rowOf, labels } = this;
    const rows = subsets.rows;
    const slots = subsets.slots;
    for (let k = 0; k < count; k++) {
      const g = drawn[k]!;
      const w = weights[g]!;
      const at = rowOf[g]!;
      const acc = labels[g] ? accPositive : accNegative;
      for (let q = 0; q < slots; q++) acc[q]! += w * rows[at + q]!;
    }
  }
}

function grownMasks(masks: Int32Array, least: number): Int32Array {
  const to = new Int32Array(Math.max(2 * masks.length, least));
  to.set(masks);
  return to;
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
 * The same computation with separate tp/fp counters: used for slices of ≥ 2^26 cases, and the
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
