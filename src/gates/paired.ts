// Paired comparison of a run against a baseline (docs/reports.md, "Gates", docs/reports.md, "Comparing with a baseline"): both are scored on the
// same cases, so the question "did it get worse?" is answered on per-case differences, not by
// comparing two overlapping intervals. Pure: outcomes in, numbers out.
//
// - Pairing unit: the case. Every case id present on both sides is paired, whatever runs each
//   side has (5 runs against 1, 1,123 against 3): run keys are never matched across sides.
// - Each side's per-case value is the mean over that side's runs of the case: correctness (share
//   of its runs judged right), each class's share of its predictions, and each per-case value
//   (localization hit, …) over the runs that have it.
// - Metrics over the paired cases: accuracy = mean over cases of per-case correctness; macro-F1
//   from the confusion matrix in which each case adds its class shares to its gold row (weight 1
//   per case, split over its runs' predictions); a value metric = mean over the cases that have
//   it. With one run per side these are the usual metrics; with every case in every run,
//   accuracy and the value metrics equal the headline ones.
// - Interval of each difference (current − baseline): seeded percentile bootstrap resampling
//   paired cases with replacement; both sides use the same resample. Resample b draws from its
//   own PRNG stream (seed, b); percentiles interpolate linearly, as for the headline interval.
// - McNemar's exact test on cases: a case is right on a side when strictly more than half of
//   that side's runs judged it right (majority of runs; a tie, e.g. 1 of 2, is not right). The
//   test is an exact two-sided binomial on the discordant cases.
import { f1 } from "../core/metrics/binary.js";
import { percentile } from "../core/metrics/bootstrap.js";
import { mcnemarExact } from "../core/metrics/mcnemar.js";
import { createPrng } from "../core/metrics/prng.js";
import type { BaselineComparison, PairedDifference } from "../report/types.js";
import { pairedSide, type PairedOutcome, type PairedSide } from "./paired-side.js";

/** Class labels for binary document judgments, in the order macro-F1 averages them. */
export const DOCUMENT_CLASSES: readonly string[] = ["positive", "negative"];

export function documentClass(judgment: boolean): string {
  return judgment ? "positive" : "negative";
}

export interface PairedOptions {
  seed: number;
  resamples: number;
  /** Classes macro-F1 averages over; default: every label seen on either side, sorted. */
  classes?: readonly string[];
  /** Recorded in the result. */
  baselinePath?: string | null;
}

/** One side's per-case means over its runs (see the header), for the paired cases. */
interface SideCases {
  /** Per case: share of its runs judged right. */
  correct: Float64Array;
  /** Per case × class: share of its runs predicting that class (row-major, classCount wide). */
  predictedShare: Float64Array;
  /** Per case: the gold class index. */
  gold: Int32Array;
  /** Per value metric, per case: mean over the runs that have it, NaN when none does. */
  values: Float64Array[];
  /** Units (case, run) of the paired cases on this side. */
  units: number;
}

/**
 * One side's SideCases for the paired cases (`caseIdx`: each paired case's index on this side);
 * `globalLabel` maps the side's label indices onto the comparison's, `valueIdx` each compared value
 * metric onto the side's value index. The sums are the ones of adding the runs one by one.
 */
function sideCases(side: PairedSide, caseIdx: Int32Array, globalLabel: Int32Array, classCount: number, valueIdx: readonly number[]): SideCases {
  const n = caseIdx.length;
  const out: SideCases = {
    correct: new Float64Array(n),
    predictedShare: new Float64Array(n * classCount),
    gold: new Int32Array(n),
    values: valueIdx.map(() => new Float64Array(n).fill(NaN)),
    units: 0,
  };
  const labels = side.predicted.length;
  for (let i = 0; i < n; i++) {
    const c = caseIdx[i]!;
    const units = side.units[c]!;
    out.units += units;
    out.gold[i] = globalLabel[side.gold[c]!]!;
    const share = 1 / units;
    for (let l = 0; l < labels; l++) {
      const k = side.predicted[l]![c]!;
      if (k === 0) continue;
      // Added once per run, as when the runs were added one by one.
      const cell = i * classCount + globalLabel[l]!;
      for (let j = 0; j < k; j++) out.predictedShare[cell]! += share;
    }
    out.correct[i] = side.right[c]! / units;
    valueIdx.forEach((v, m) => {
      const count = side.valueCount[v]![c]!;
      if (count > 0) out.values[m]![i] = side.valueSum[v]![c]! / count;
    });
  }
  return out;
}

/** Indices, over the paired cases in order, of what `first` (per item, per case: first appearance, -1 none) shows, ordered by first appearance. */
function firstAppearances(first: readonly Float64Array[], caseIdx: Int32Array): number[] {
  const found: number[] = [];
  const taken = new Uint8Array(first.length);
  for (let i = 0; i < caseIdx.length && found.length < first.length; i++) {
    const c = caseIdx[i]!;
    const here: number[] = [];
    for (let item = 0; item < first.length; item++) if (taken[item] === 0 && first[item]![c]! >= 0) here.push(item);
    here.sort((x, y) => first[x]![c]! - first[y]![c]!);
    for (const item of here) {
      taken[item] = 1;
      found.push(item);
    }
  }
  return found;
}

/**
 * [accuracy, macro_f1, ...values] of one side with case weights: `weights[i]` copies of case i.
 * Cost O(cases · classes).
 */
function sideMetrics(side: SideCases, weights: Uint32Array, classCount: number, f1Classes: number, confusion: Float64Array): Float64Array {
  const n = weights.length;
  const out = new Float64Array(2 + side.values.length);
  confusion.fill(0);
  let total = 0;
  let correct = 0;
  for (let i = 0; i < n; i++) {
    const w = weights[i]!;
    if (w === 0) continue;
    total += w;
    correct += w * side.correct[i]!;
    const row = side.gold[i]! * classCount;
    for (let c = 0; c < classCount; c++) confusion[row + c]! += w * side.predictedShare[i * classCount + c]!;
  }
  out[0] = total > 0 ? correct / total : 0;
  let f1Sum = 0;
  for (let c = 0; c < f1Classes; c++) {
    let goldC = 0;
    let predC = 0;
    for (let j = 0; j < classCount; j++) {
      goldC += confusion[c * classCount + j]!;
      predC += confusion[j * classCount + c]!;
    }
    const tp = confusion[c * classCount + c]!;
    f1Sum += f1(predC > 0 ? tp / predC : 0, goldC > 0 ? tp / goldC : 0);
  }
  out[1] = f1Classes > 0 ? f1Sum / f1Classes : 0;
  side.values.forEach((value, m) => {
    let sum = 0;
    let defined = 0;
    for (let i = 0; i < n; i++) {
      const w = weights[i]!;
      const v = value[i]!;
      if (w === 0 || v !== v) continue;
      sum += w * v;
      defined += w;
    }
    out[2 + m] = defined > 0 ? sum / defined : 0;
  });
  return out;
}

/**
 * Compares `current` with `baseline` on the cases both have (see the header for the pairing).
 * Metrics: accuracy, macro_f1, and every `values` key present on both sides.
 */
export function pairedComparison(current: readonly PairedOutcome[], baseline: readonly PairedOutcome[], opts: PairedOptions): BaselineComparison {
  return pairedSideComparison(pairedSide(current), pairedSide(baseline), opts);
}

/** pairedComparison of two sides accumulated per case (src/gates/paired-side.ts). */
export function pairedSideComparison(cur: PairedSide, base: PairedSide, opts: PairedOptions): BaselineComparison {
  const caseIds = cur.cases.list.filter((id) => base.caseIndex(id) !== undefined);
  const n = caseIds.length;
  const curIdx = Int32Array.from(caseIds, (id) => cur.caseIndex(id)!);
  const baseIdx = Int32Array.from(caseIds, (id) => base.caseIndex(id)!);
  const { classIndex, classCount, f1Classes } = pairedClasses(cur, base, curIdx, baseIdx, opts);
  const baselineValues = new Set(firstAppearances(base.valueFirst, baseIdx).map((v) => base.valueNames.list[v]!));
  const valueNames = firstAppearances(cur.valueFirst, curIdx)
    .map((v) => cur.valueNames.list[v]!)
    .filter((name) => baselineValues.has(name));
  // A label no paired unit shows gets no index (no paired case refers to it).
  const globalLabels = (side: PairedSide) => Int32Array.from(side.labels.list, (label) => classIndex.get(label) ?? -1);
  const sides = [
    sideCases(
      cur,
      curIdx,
      globalLabels(cur),
      classCount,
      valueNames.map((name) => cur.valueNames.get(name)!),
    ),
    sideCases(
      base,
      baseIdx,
      globalLabels(base),
      classCount,
      valueNames.map((name) => base.valueNames.get(name)!),
    ),
  ] as const;
  const names = ["accuracy", "macro_f1", ...valueNames];
  const metrics = pairedDifferences(sides, names, n, classCount, f1Classes, opts);
  const { baselineOnly, currentOnly } = discordantCases(sides, n);
  return {
    path: opts.baselinePath ?? null,
    paired_by: "case",
    matched_cases: n,
    unmatched_current: cur.caseCount() - n,
    unmatched_baseline: base.caseCount() - n,
    units: { current: sides[0].units, baseline: sides[1].units },
    runs: { current: [...cur.runs.list], baseline: [...base.runs.list] },
    seed: opts.seed,
    resamples: opts.resamples,
    metrics,
    mcnemar: { ...mcnemarExact(baselineOnly, currentOnly), rule: "majority_of_runs" },
  };
}

/** The label classes both sides are scored over: an index per label, how many, and how many macro-F1 averages over. */
function pairedClasses(
  cur: PairedSide,
  base: PairedSide,
  curIdx: Int32Array,
  baseIdx: Int32Array,
  opts: PairedOptions,
): { classIndex: Map<string, number>; classCount: number; f1Classes: number } {
  // Labels in the order the paired units show them: current's cases, then the baseline's.
  const curLabels = firstAppearances(cur.labelFirst, curIdx).map((l) => cur.labels.list[l]!);
  const baseLabels = firstAppearances(base.labelFirst, baseIdx).map((l) => base.labels.list[l]!);
  const classes = opts.classes ?? [...new Set([...curLabels, ...baseLabels])].sort();
  const classIndex = new Map(classes.map((label, i) => [label, i]));
  // A label outside `classes` still counts for accuracy: it gets its own index past the classes.
  for (const label of [...curLabels, ...baseLabels]) if (!classIndex.has(label)) classIndex.set(label, classIndex.size);
  return { classIndex, classCount: Math.max(1, classIndex.size), f1Classes: opts.classes ? opts.classes.length : classIndex.size };
}

/** Each metric's current − baseline difference, with its paired bootstrap interval (cases resampled, both sides with the same weights). */
function pairedDifferences(
  sides: readonly [SideCases, SideCases],
  names: readonly string[],
  n: number,
  classCount: number,
  f1Classes: number,
  opts: PairedOptions,
): Record<string, PairedDifference> {
  const confusion = new Float64Array(classCount * classCount);
  const ones = new Uint32Array(n).fill(1);
  const point = sides.map((side) => sideMetrics(side, ones, classCount, f1Classes, confusion));
  const draws = names.map(() => new Float64Array(opts.resamples));
  if (n > 0) {
    const weights = new Uint32Array(n);
    for (let b = 0; b < opts.resamples; b++) {
      const prng = createPrng(opts.seed, b);
      weights.fill(0);
      for (let k = 0; k < n; k++) weights[prng.nextBelow(n)]!++;
      const c = sideMetrics(sides[0], weights, classCount, f1Classes, confusion);
      const r = sideMetrics(sides[1], weights, classCount, f1Classes, confusion);
      for (let m = 0; m < names.length; m++) draws[m]![b] = c[m]! - r[m]!;
    }
  }
  const metrics: Record<string, PairedDifference> = {};
  const hasDraws = n > 0 && opts.resamples > 0;
  names.forEach((name, m) => {
    const sorted = draws[m]!.sort();
    const difference = point[0]![m]! - point[1]![m]!;
    metrics[name] = {
      current: point[0]![m]!,
      baseline: point[1]![m]!,
      difference,
      low: hasDraws ? percentile(sorted, 0.025) : difference,
      high: hasDraws ? percentile(sorted, 0.975) : difference,
    };
  });
  return metrics;
}

/** McNemar's counts on cases, each side's case right by a strict majority of its runs. */
function discordantCases(sides: readonly [SideCases, SideCases], n: number): { baselineOnly: number; currentOnly: number } {
  let baselineOnly = 0;
  let currentOnly = 0;
  for (let i = 0; i < n; i++) {
    const currentRight = sides[0].correct[i]! > 0.5;
    const baselineRight = sides[1].correct[i]! > 0.5;
    if (baselineRight && !currentRight) baselineOnly++;
    else if (currentRight && !baselineRight) currentOnly++;
  }
  return { baselineOnly, currentOnly };
}
