// An independent bootstrap written for the tests: plain loops over the resample draws, with its
// own grouping of cases by signature, its own macro-F1 and its own percentile. It shares only the
// random draws with src/ (the multinomial counts of the groups, `multinomialCounts`), so that the
// values the packed and unpacked loops of src/ produce can be checked against it.
import { multinomialCounts } from "../../../src/core/metrics/binomial.js";
import { createPrng } from "../../../src/core/metrics/prng.js";

/** Cases grouped by (label, judged positive in every run), groups in order of their first case. */
export function oracleGroups(labels: Uint8Array, codes: Uint8Array, R: number): { label: number; judged: number[]; size: number }[] {
  const n = labels.length;
  const byKey = new Map<string, { label: number; judged: number[]; size: number }>();
  for (let i = 0; i < n; i++) {
    const judged: number[] = [];
    for (let r = 0; r < R; r++) judged.push(codes[r * n + i]! % 2);
    const key = `${labels[i]}:${judged.join("")}`;
    const group = byKey.get(key);
    if (group) group.size++;
    else byKey.set(key, { label: labels[i]!, judged, size: 1 });
  }
  return [...byKey.values()];
}

function classF1(tp: number, fp: number, fn: number): number {
  const precision = tp / Math.max(1, tp + fp);
  const recall = tp / Math.max(1, tp + fn);
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/** The spec's macro-F1: the mean of both classes' F1, each with max(1, ·) denominators. */
export function oracleMacroF1(tp: number, fp: number, fn: number, tn: number): number {
  return (classF1(tp, fp, fn) + classF1(tn, fn, fp)) / 2;
}

/** Resample b's headline (mean over runs of macro-F1 on the resampled cases). */
export function oracleResample(labels: Uint8Array, codes: Uint8Array, R: number, seed: number, b: number): number {
  const n = labels.length;
  const groups = oracleGroups(labels, codes, R);
  const counts = new Float64Array(groups.length);
  multinomialCounts(
    createPrng(seed, b),
    groups.map((g) => g.size),
    n,
    counts,
    new Int32Array(groups.length),
  );
  // A fresh array: groups after the last draw keep their count of 0.
  let sum = 0;
  for (let r = 0; r < R; r++) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    let tn = 0;
    groups.forEach((g, k) => {
      const w = counts[k]!;
      if (g.label === 1 && g.judged[r] === 1) tp += w;
      else if (g.label === 1) fn += w;
      else if (g.judged[r] === 1) fp += w;
      else tn += w;
    });
    sum += oracleMacroF1(tp, fp, fn, tn);
  }
  return sum / R;
}

/** numpy's default percentile: linear interpolation between order statistics. */
export function oraclePercentile(values: number[], q: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return sorted[lo]! + (h - lo) * (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!);
}

/** The 95% interval: 2.5th and 97.5th percentiles of the B resample values. */
export function oracleInterval(labels: Uint8Array, codes: Uint8Array, R: number, seed: number, B: number): { low: number; high: number } {
  const values = Array.from({ length: B }, (_, b) => oracleResample(labels, codes, R, seed, b));
  return { low: oraclePercentile(values, 0.025), high: oraclePercentile(values, 0.975) };
}
