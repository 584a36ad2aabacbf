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

/** Outcomes of one side, laid out per paired unit. */
interface Side {
  gold: Int32Array;
  predicted: Int32Array;
  values: Map<string, Float64Array>;
}

function unitKey(outcome: PairedOutcome, byCase: boolean): string {
  return byCase ? outcome.case_id : `${outcome.case_id}\u0000${outcome.run}`;
}

function distinctRuns(outcomes: readonly PairedOutcome[]): Set<string> {
  const runs = new Set<string>();
  for (const o of outcomes) runs.add(o.run);
  return runs;
}

/** Per metric name, the value of one side on case weights `weights` (mean over runs). */
function sideMetrics(
  side: Side,
  unitCase: Int32Array,
  unitRun: Int32Array,
  runCount: number,
  classCount: number,
  f1Classes: number,
  weights: Uint32Array | null,
  valueNames: readonly string[],
): Map<string, number> {
  const k = classCount;
  const confusion = new Float64Array(runCount * k * k);
  const sums = valueNames.map(() => new Float64Array(runCount));
  const counts = valueNames.map(() => new Float64Array(runCount));
  const valueArrays = valueNames.map((name) => side.values.get(name)!);
  for (let u = 0; u < unitCase.length; u++) {
    const w = weights === null ? 1 : weights[unitCase[u]!]!;
    if (w === 0) continue;
    const r = unitRun[u]!;
    confusion[r * k * k + side.gold[u]! * k + side.predicted[u]!]! += w;
    for (let m = 0; m < valueArrays.length; m++) {
      const v = valueArrays[m]![u]!;
      if (!Number.isNaN(v)) {
        sums[m]![r]! += w * v;
        counts[m]![r]! += w;
      }
    }
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
  const result = new Map<string, number>([
    ["accuracy", accuracy / runCount],
    ["macro_f1", macro / runCount],
  ]);
  valueNames.forEach((name, m) => {
    let mean = 0;
    for (let r = 0; r < runCount; r++) mean += counts[m]![r]! > 0 ? sums[m]![r]! / counts[m]![r]! : 0;
    result.set(name, mean / runCount);
  });
  return result;
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

  const caseIndex = new Map<string, number>();
  const runIndex = new Map<string, number>();
  const n = pairs.length;
  const unitCase = new Int32Array(n);
  const unitRun = new Int32Array(n);
  const valueNames = [...new Set(pairs.flatMap(([c]) => Object.keys(c.values ?? {})))].filter((name) =>
    pairs.some(([, b]) => b.values !== undefined && Object.hasOwn(b.values, name)),
  );
  const makeSide = (): Side => ({ gold: new Int32Array(n), predicted: new Int32Array(n), values: new Map(valueNames.map((name) => [name, new Float64Array(n).fill(NaN)])) });
  const sides = [makeSide(), makeSide()] as const;
  pairs.forEach((pair, u) => {
    let ci = caseIndex.get(pair[0].case_id);
    if (ci === undefined) caseIndex.set(pair[0].case_id, (ci = caseIndex.size));
    let ri = runIndex.get(pair[0].run);
    if (ri === undefined) runIndex.set(pair[0].run, (ri = runIndex.size));
    unitCase[u] = ci;
    unitRun[u] = ri;
    pair.forEach((o, s) => {
      const side = sides[s]!;
      side.gold[u] = indexOf(o.gold);
      side.predicted[u] = indexOf(o.predicted);
      for (const name of valueNames) {
        const v = o.values?.[name];
        if (typeof v === "number" && Number.isFinite(v)) side.values.get(name)![u] = v;
      }
    });
  });
  // Labels outside `classes` widen the matrix for accuracy, but macro-F1 averages only `classes`.
  const classCount = classIndex.size;
  const runCount = Math.max(1, runIndex.size);
  const f1Classes = opts.classes ? opts.classes.length : classCount;

  const evaluate = (weights: Uint32Array | null) =>
    sides.map((side) => sideMetrics(side, unitCase, unitRun, runCount, classCount, f1Classes, weights, valueNames));

  const point = evaluate(null);
  const names = ["accuracy", "macro_f1", ...valueNames];
  const cases = caseIndex.size;
  const draws = names.map(() => new Float64Array(opts.resamples));
  if (cases > 0) {
    const weights = new Uint32Array(cases);
    for (let b = 0; b < opts.resamples; b++) {
      const prng = createPrng(opts.seed, b);
      weights.fill(0);
      for (let k = 0; k < cases; k++) weights[prng.nextBelow(cases)]!++;
      const [cur, base] = evaluate(weights);
      names.forEach((name, m) => (draws[m]![b] = cur!.get(name)! - base!.get(name)!));
    }
  }
  const metrics: Record<string, PairedDifference> = {};
  names.forEach((name, m) => {
    const sorted = draws[m]!.sort();
    const currentValue = point[0]!.get(name)!;
    const baselineValue = point[1]!.get(name)!;
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
  for (let u = 0; u < n; u++) {
    const currentRight = sides[0].gold[u] === sides[0].predicted[u];
    const baselineRight = sides[1].gold[u] === sides[1].predicted[u];
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
