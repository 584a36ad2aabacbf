// Paired comparison of a run against a baseline (SPEC §4.3, lessons §0.6): both are scored on the
// same cases, so the question "did it get worse?" is answered on per-case differences, not by
// comparing two overlapping intervals. Pure: outcomes in, numbers out.
//
// - Pairing unit: (case_id, run). When each side has exactly one run (whatever its key), units
//   pair on case_id alone, so a single-run baseline compares with a single-run candidate.
// - Metric values are computed exactly as the headline: per run over the paired units, then the
//   mean over runs (a run with no unit contributes 0, as any mean over an empty population).
// - Interval of each difference (current − baseline): seeded percentile bootstrap resampling
//   case ids with replacement (all runs of a case move together, so repeated runs of one case
//   are not mistaken for independent evidence); both sides use the same resample. Resample b
//   draws from its own PRNG stream (seed, b); percentiles interpolate linearly, as for the
//   headline macro-F1 interval.
// - McNemar's test on paired correctness, exact two-sided binomial on the discordant units at
//   every size (no chi-square approximation to choose a cut-off for). With several runs per
//   case the units are not independent; read p as indicative then.
import { f1 } from "../core/metrics/binary.js";
import { percentile } from "../core/metrics/bootstrap.js";
import { createPrng } from "../core/metrics/prng.js";
import type { BaselineComparison, McNemarResult, PairedDifference } from "../report/types.js";

/**
 * One scored (case, run) as the comparison needs it. Tasks fill it from their per-case results
 * (cases.jsonl lines): `gold` and `predicted` are class labels as scored (a format-invalid or
 * missing prediction carries the class it was scored as, e.g. "negative"); `values` holds per-case
 * numbers whose mean over units is a headline metric, keyed by that metric's name (e.g.
 * `localization_recall` ← localization_hit as 0/1, only on gold-positive cases). A missing or
 * null value leaves the unit out of that metric's population.
 */
export interface PairedOutcome {
  case_id: string;
  run: string;
  gold: string;
  predicted: string;
  values?: Record<string, number | null>;
}

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

/** P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space so that large n does not underflow. */
export function binomialHalfCdf(k: number, n: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  // log of C(n, i) / 2^n from i = 0 upwards, summed relative to the largest term.
  const logs = new Float64Array(k + 1);
  logs[0] = -n * Math.LN2;
  for (let i = 0; i < k; i++) logs[i + 1] = logs[i]! + Math.log(n - i) - Math.log(i + 1);
  let top = -Infinity;
  for (let i = 0; i <= k; i++) top = Math.max(top, logs[i]!);
  let sum = 0;
  for (let i = 0; i <= k; i++) sum += Math.exp(logs[i]! - top);
  return Math.min(1, Math.exp(top) * sum);
}

/**
 * McNemar's exact test: `baselineOnly` units only the baseline got right, `currentOnly` units only
 * the current run got right. Two-sided p = min(1, 2·P(X ≤ min(b, c))), X ~ Bin(b + c, 1/2).
 */
export function mcnemarExact(baselineOnly: number, currentOnly: number): McNemarResult {
  const n = baselineOnly + currentOnly;
  const p = n === 0 ? 1 : Math.min(1, 2 * binomialHalfCdf(Math.min(baselineOnly, currentOnly), n));
  return { baseline_only: baselineOnly, current_only: currentOnly, p_value: p, method: "exact_binomial" };
}

/**
 * One side's outcomes laid out for the bootstrap: units grouped by case (CSR: the units of case i
 * are caseStart[i] … caseStart[i+1]-1), each unit's confusion cell (run·k² + gold·k + predicted).
 */
interface SideLayout {
  cell: Int32Array;
  /** Per value metric: per-case sums when the fast path applies, else per-unit values (NaN = none). */
  values: ValueLayout[];
}

type ValueLayout =
  | { kind: "per_case"; caseSum: Float64Array; caseDefined: Uint8Array }
  | { kind: "per_unit"; value: Float64Array };

interface Layout {
  caseStart: Int32Array;
  unitRun: Int32Array;
  runCount: number;
  classCount: number;
  f1Classes: number;
}

/**
 * The metrics of one side on case weights `weights` (only `drawn[0..drawnCount)` are non-zero):
 * [accuracy, macro_f1, ...values], each the mean over runs of the per-run value.
 * Cost: O(units of the drawn cases + runs · k²) (+ O(drawn cases) per per-case value).
 */
function sideMetrics(layout: Layout, side: SideLayout, weights: Uint32Array, drawn: Int32Array, drawnCount: number, confusion: Float64Array): Float64Array {
  const { caseStart, unitRun, runCount, classCount: k, f1Classes } = layout;
  const out = new Float64Array(2 + side.values.length);
  confusion.fill(0);
  const cell = side.cell;
  for (let d = 0; d < drawnCount; d++) {
    const i = drawn[d]!;
    const w = weights[i]!;
    for (let u = caseStart[i]!, end = caseStart[i + 1]!; u < end; u++) confusion[cell[u]!]! += w;
  }
  let accuracy = 0;
  let macro = 0;
  for (let r = 0; r < runCount; r++) {
    const base = r * k * k;
    let total = 0;
    let correct = 0;
    let f1Sum = 0;
    for (let c = 0; c < k; c++) {
      let goldC = 0;
      let predC = 0;
      for (let j = 0; j < k; j++) {
        goldC += confusion[base + c * k + j]!;
        predC += confusion[base + j * k + c]!;
      }
      const tp = confusion[base + c * k + c]!;
      correct += tp;
      total += goldC;
      if (c < f1Classes) f1Sum += f1(tp / Math.max(1, predC), tp / Math.max(1, goldC));
    }
    accuracy += total > 0 ? correct / total : 0;
    macro += f1Classes > 0 ? f1Sum / f1Classes : 0;
  }
  out[0] = accuracy / runCount;
  out[1] = macro / runCount;
  const sums = new Float64Array(runCount);
  const counts = new Float64Array(runCount);
  side.values.forEach((layoutOfValue, m) => {
    if (layoutOfValue.kind === "per_case") {
      // Every run covers the same cases and a case has the value in all its runs or none, so the
      // mean over runs of per-run means is one weighted mean over cases.
      let sum = 0;
      let defined = 0;
      for (let d = 0; d < drawnCount; d++) {
        const i = drawn[d]!;
        const w = weights[i]!;
        sum += w * layoutOfValue.caseSum[i]!;
        defined += w * layoutOfValue.caseDefined[i]!;
      }
      out[2 + m] = defined > 0 ? sum / (runCount * defined) : 0;
      return;
    }
    sums.fill(0);
    counts.fill(0);
    const value = layoutOfValue.value;
    for (let d = 0; d < drawnCount; d++) {
      const i = drawn[d]!;
      const w = weights[i]!;
      for (let u = caseStart[i]!, end = caseStart[i + 1]!; u < end; u++) {
        const v = value[u]!;
        if (v === v) {
          sums[unitRun[u]!]! += w * v;
          counts[unitRun[u]!]! += w;
        }
      }
    }
    let mean = 0;
    for (let r = 0; r < runCount; r++) mean += counts[r]! > 0 ? sums[r]! / counts[r]! : 0;
    out[2 + m] = mean / runCount;
  });
  return out;
}

/** Per-case sums when every case has one unit per run and the value in all its runs or none. */
function valueLayout(value: Float64Array, caseStart: Int32Array, runCount: number): ValueLayout {
  const cases = caseStart.length - 1;
  const caseSum = new Float64Array(cases);
  const caseDefined = new Uint8Array(cases);
  for (let i = 0; i < cases; i++) {
    const start = caseStart[i]!;
    const end = caseStart[i + 1]!;
    if (end - start !== runCount) return { kind: "per_unit", value };
    let defined = 0;
    let sum = 0;
    for (let u = start; u < end; u++) {
      const v = value[u]!;
      if (v === v) {
        defined++;
        sum += v;
      }
    }
    if (defined !== 0 && defined !== runCount) return { kind: "per_unit", value };
    caseSum[i] = sum;
    caseDefined[i] = defined > 0 ? 1 : 0;
  }
  return { kind: "per_case", caseSum, caseDefined };
}

function unitKey(outcome: PairedOutcome, byCase: boolean): string {
  return byCase ? outcome.case_id : `${outcome.case_id}\u0000${outcome.run}`;
}

function distinctRuns(outcomes: readonly PairedOutcome[]): Set<string> {
  const runs = new Set<string>();
  for (const o of outcomes) runs.add(o.run);
  return runs;
}

/**
 * Compares `current` with `baseline` on the units both have. Duplicate units keep their first
 * occurrence. Metrics: accuracy, macro_f1, and every `values` key present on both sides.
 */
export function pairedComparison(
  current: readonly PairedOutcome[],
  baseline: readonly PairedOutcome[],
  opts: PairedOptions,
): BaselineComparison {
  const byCase = distinctRuns(current).size === 1 && distinctRuns(baseline).size === 1;
  const baselineByKey = new Map<string, PairedOutcome>();
  for (const o of baseline) {
    const key = unitKey(o, byCase);
    if (!baselineByKey.has(key)) baselineByKey.set(key, o);
  }
  const seen = new Set<string>();
  const pairs: Array<[PairedOutcome, PairedOutcome]> = [];
  let unmatchedCurrent = 0;
  for (const o of current) {
    const key = unitKey(o, byCase);
    if (seen.has(key)) continue;
    seen.add(key);
    const other = baselineByKey.get(key);
    if (other === undefined) unmatchedCurrent++;
    else pairs.push([o, other]);
  }
  const unmatchedBaseline = baselineByKey.size - pairs.length;

  const classes = opts.classes ?? [...new Set(pairs.flatMap(([c, b]) => [c.gold, c.predicted, b.gold, b.predicted]))].sort();
  const classIndex = new Map(classes.map((label, i) => [label, i]));
  // A label outside `classes` still counts for accuracy: it gets its own index past the classes.
  const indexOf = (label: string): number => {
    let i = classIndex.get(label);
    if (i === undefined) {
      i = classIndex.size;
      classIndex.set(label, i);
    }
    return i;
  };

  // Case and run indices in order of first appearance; units then grouped by case (counting sort).
  const caseIndex = new Map<string, number>();
  const runIndex = new Map<string, number>();
  const n = pairs.length;
  const pairCase = new Int32Array(n);
  for (let p = 0; p < n; p++) {
    const pair = pairs[p]!;
    let ci = caseIndex.get(pair[0].case_id);
    if (ci === undefined) caseIndex.set(pair[0].case_id, (ci = caseIndex.size));
    if (!runIndex.has(pair[0].run)) runIndex.set(pair[0].run, runIndex.size);
    pairCase[p] = ci;
  }
  const cases = caseIndex.size;
  const caseStart = new Int32Array(cases + 1);
  for (let p = 0; p < n; p++) caseStart[pairCase[p]! + 1]!++;
  for (let i = 0; i < cases; i++) caseStart[i + 1]! += caseStart[i]!;
  const order = new Int32Array(n);
  const fill = caseStart.slice(0, cases);
  for (let p = 0; p < n; p++) order[fill[pairCase[p]!]!++] = p;

  const valueNames = [...new Set(pairs.flatMap(([c]) => Object.keys(c.values ?? {})))].filter((name) =>
    pairs.some(([, b]) => b.values !== undefined && Object.hasOwn(b.values, name)),
  );
  for (const [c, b] of pairs) {
    for (const o of [c, b]) {
      indexOf(o.gold);
      indexOf(o.predicted);
    }
  }
  // Labels outside `classes` widen the matrix for accuracy, but macro-F1 averages only `classes`.
  const classCount = classIndex.size;
  const runCount = Math.max(1, runIndex.size);
  const f1Classes = opts.classes ? opts.classes.length : classCount;
  const unitRun = new Int32Array(n);
  for (let u = 0; u < n; u++) unitRun[u] = runIndex.get(pairs[order[u]!]![0].run)!;
  const layout: Layout = { caseStart, unitRun, runCount, classCount, f1Classes };
  const sides: SideLayout[] = [0, 1].map((s) => {
    const cell = new Int32Array(n);
    const perUnit = valueNames.map(() => new Float64Array(n).fill(NaN));
    for (let u = 0; u < n; u++) {
      const o = pairs[order[u]!]![s]!;
      cell[u] = unitRun[u]! * classCount * classCount + indexOf(o.gold) * classCount + indexOf(o.predicted);
      valueNames.forEach((name, m) => {
        const v = o.values?.[name];
        if (typeof v === "number" && Number.isFinite(v)) perUnit[m]![u] = v;
      });
    }
    return { cell, values: perUnit.map((value) => valueLayout(value, caseStart, runCount)) };
  });

  const confusion = new Float64Array(runCount * classCount * classCount);
  const everyCase = new Int32Array(cases).map((_, i) => i);
  const unitWeights = new Uint32Array(cases).fill(1);
  const point = sides.map((side) => sideMetrics(layout, side, unitWeights, everyCase, cases, confusion));
  const names = ["accuracy", "macro_f1", ...valueNames];
  const draws = names.map(() => new Float64Array(opts.resamples));
  if (cases > 0) {
    const weights = new Uint32Array(cases);
    const drawn = new Int32Array(cases);
    for (let b = 0; b < opts.resamples; b++) {
      const prng = createPrng(opts.seed, b);
      weights.fill(0);
      let drawnCount = 0;
      for (let k = 0; k < cases; k++) {
        const i = prng.nextBelow(cases);
        if (weights[i] === 0) drawn[drawnCount++] = i;
        weights[i]!++;
      }
      const cur = sideMetrics(layout, sides[0]!, weights, drawn, drawnCount, confusion);
      const base = sideMetrics(layout, sides[1]!, weights, drawn, drawnCount, confusion);
      for (let m = 0; m < names.length; m++) draws[m]![b] = cur[m]! - base[m]!;
    }
  }
  const metrics: Record<string, PairedDifference> = {};
  names.forEach((name, m) => {
    const sorted = draws[m]!.sort();
    const currentValue = point[0]![m]!;
    const baselineValue = point[1]![m]!;
    const difference = currentValue - baselineValue;
    const hasDraws = cases > 0 && opts.resamples > 0;
    metrics[name] = {
      current: currentValue,
      baseline: baselineValue,
      difference,
      low: hasDraws ? percentile(sorted, 0.025) : difference,
      high: hasDraws ? percentile(sorted, 0.975) : difference,
    };
  });

  let baselineOnly = 0;
  let currentOnly = 0;
  for (const [c, b] of pairs) {
    const currentRight = c.gold === c.predicted;
    const baselineRight = b.gold === b.predicted;
    if (baselineRight && !currentRight) baselineOnly++;
    else if (currentRight && !baselineRight) currentOnly++;
  }

  return {
    path: opts.baselinePath ?? null,
    matched_units: n,
    matched_cases: cases,
    unmatched_current: unmatchedCurrent,
    unmatched_baseline: unmatchedBaseline,
    paired_by: byCase ? "case" : "case_run",
    seed: opts.seed,
    resamples: opts.resamples,
    metrics,
    mcnemar: mcnemarExact(baselineOnly, currentOnly),
  };
}
