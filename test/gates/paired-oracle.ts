// A naive paired comparison written for the tests from the definitions in docs/reports.md ("Paired
// comparison with a baseline"), sharing nothing with src/gates but the seeded PRNG that decides each
// resample: plain arrays of (case, run) objects, per-case means written out as filters, the
// confusion matrix as nested arrays, percentiles and the exact McNemar p-value computed here.
import { expect } from "vitest";
import { createPrng } from "../../src/core/metrics/prng.js";
import type { PairedOutcome } from "../../src/gates/paired-side.js";
import type { BaselineComparison } from "../../src/report/types.js";
import { oraclePercentile } from "../core/metrics/bootstrap-oracle.js";

export interface NaiveOptions {
  seed: number;
  resamples: number;
  /** The classes macro-F1 averages over; default every label met, sorted. */
  classes?: readonly string[];
}

interface NaiveCase {
  right: number;
  gold: string;
  /** Share of the case's runs predicting each label. */
  share: Map<string, number>;
  /** Mean of each value over the runs that have a finite one (absent: none has). */
  values: Map<string, number>;
}

/** First line per (case, run); cases and runs in order of first appearance. */
function kept(outcomes: readonly PairedOutcome[]): { byCase: Map<string, PairedOutcome[]>; runs: string[] } {
  const byCase = new Map<string, PairedOutcome[]>();
  const runs: string[] = [];
  for (const o of outcomes) {
    const list = byCase.get(o.case_id) ?? [];
    if (list.some((u) => u.run === o.run)) continue;
    list.push(o);
    byCase.set(o.case_id, list);
    if (!runs.includes(o.run)) runs.push(o.run);
  }
  return { byCase, runs };
}

function naiveCase(units: PairedOutcome[], valueNames: readonly string[]): NaiveCase {
  const share = new Map<string, number>();
  for (const u of units) share.set(u.predicted, (share.get(u.predicted) ?? 0) + 1 / units.length);
  const values = new Map<string, number>();
  for (const name of valueNames) {
    const finite = units.map((u) => u.values?.[name]).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
    if (finite.length > 0) values.set(name, finite.reduce((a, b) => a + b, 0) / finite.length);
  }
  return { right: units.filter((u) => u.gold === u.predicted).length / units.length, gold: units[0]!.gold, share, values };
}

/** [accuracy, macro_f1, ...values] of one side with `weights[i]` copies of case i. */
function naiveMetrics(cases: NaiveCase[], weights: number[], f1Classes: readonly string[], valueNames: readonly string[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const accuracy = total > 0 ? cases.reduce((a, c, i) => a + weights[i]! * c.right, 0) / total : 0;
  // confusion[gold][predicted], labels outside the F1 classes included (they count in the sums).
  const confusion = new Map<string, Map<string, number>>();
  cases.forEach((c, i) => {
    const row = confusion.get(c.gold) ?? new Map<string, number>();
    for (const [label, s] of c.share) row.set(label, (row.get(label) ?? 0) + weights[i]! * s);
    confusion.set(c.gold, row);
  });
  const f1s = f1Classes.map((k) => {
    const tp = confusion.get(k)?.get(k) ?? 0;
    const gold = [...(confusion.get(k)?.values() ?? [])].reduce((a, b) => a + b, 0);
    const predicted = [...confusion.values()].reduce((a, row) => a + (row.get(k) ?? 0), 0);
    const p = predicted > 0 ? tp / predicted : 0;
    const r = gold > 0 ? tp / gold : 0;
    return p + r > 0 ? (2 * p * r) / (p + r) : 0;
  });
  const macro = f1s.length > 0 ? f1s.reduce((a, b) => a + b, 0) / f1s.length : 0;
  const values = valueNames.map((name) => {
    let sum = 0;
    let count = 0;
    cases.forEach((c, i) => {
      const v = c.values.get(name);
      if (v === undefined || weights[i] === 0) return;
      sum += weights[i]! * v;
      count += weights[i]!;
    });
    return count > 0 ? sum / count : 0;
  });
  return [accuracy, macro, ...values];
}

/** Two-sided exact binomial test on the discordant cases: min(1, 2·P(X ≤ min(b, c))), X ~ Bin(b + c, 1/2). */
export function naiveMcNemarP(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  let coefficient = 1;
  let tail = 0;
  for (let k = 0; k <= Math.min(b, c); k++) {
    tail += coefficient;
    coefficient = (coefficient * (n - k)) / (k + 1);
  }
  return Math.min(1, (2 * tail) / 2 ** n);
}

export function naivePairedComparison(current: readonly PairedOutcome[], baseline: readonly PairedOutcome[], opts: NaiveOptions) {
  const cur = kept(current);
  const base = kept(baseline);
  const ids = [...cur.byCase.keys()].filter((id) => base.byCase.has(id));
  const units = (side: typeof cur) => ids.flatMap((id) => side.byCase.get(id)!);
  const labels = [...new Set([...units(cur), ...units(base)].flatMap((u) => [u.gold, u.predicted]))].sort();
  const f1Classes = opts.classes ?? labels;
  const namesOf = (list: PairedOutcome[]) => [...new Set(list.flatMap((u) => Object.keys(u.values ?? {})))];
  const baseNames = namesOf(units(base));
  const valueNames = namesOf(units(cur)).filter((name) => baseNames.includes(name));
  const casesOf = (side: typeof cur) => ids.map((id) => naiveCase(side.byCase.get(id)!, valueNames));
  const sides = [casesOf(cur), casesOf(base)] as const;
  const names = ["accuracy", "macro_f1", ...valueNames];
  const ones = ids.map(() => 1);
  const point = sides.map((side) => naiveMetrics(side, ones, f1Classes, valueNames));
  const draws = names.map(() => [] as number[]);
  for (let b = 0; b < opts.resamples && ids.length > 0; b++) {
    const prng = createPrng(opts.seed, b);
    const weights = ids.map(() => 0);
    for (let k = 0; k < ids.length; k++) weights[prng.nextBelow(ids.length)]!++;
    const c = naiveMetrics(sides[0], weights, f1Classes, valueNames);
    const r = naiveMetrics(sides[1], weights, f1Classes, valueNames);
    names.forEach((_, m) => draws[m]!.push(c[m]! - r[m]!));
  }
  const metrics = Object.fromEntries(
    names.map((name, m) => {
      const difference = point[0]![m]! - point[1]![m]!;
      const drawn = draws[m]!.length > 0;
      return [
        name,
        {
          current: point[0]![m]!,
          baseline: point[1]![m]!,
          difference,
          low: drawn ? oraclePercentile(draws[m]!, 0.025) : difference,
          high: drawn ? oraclePercentile(draws[m]!, 0.975) : difference,
        },
      ];
    }),
  );
  let baselineOnly = 0;
  let currentOnly = 0;
  ids.forEach((_, i) => {
    const currentRight = sides[0][i]!.right > 0.5;
    const baselineRight = sides[1][i]!.right > 0.5;
    if (baselineRight && !currentRight) baselineOnly++;
    if (currentRight && !baselineRight) currentOnly++;
  });
  return {
    matched_cases: ids.length,
    unmatched_current: cur.byCase.size - ids.length,
    unmatched_baseline: base.byCase.size - ids.length,
    units: { current: units(cur).length, baseline: units(base).length },
    runs: { current: cur.runs, baseline: base.runs },
    metrics,
    mcnemar: { baseline_only: baselineOnly, current_only: currentOnly, p_value: naiveMcNemarP(baselineOnly, currentOnly) },
  };
}

/** `got` (from src) against the naive comparison: counts and orders exactly, numbers within 1e-9. */
export function expectMatchesNaive(got: BaselineComparison, want: ReturnType<typeof naivePairedComparison>): void {
  const { metrics, mcnemar, ...counts } = want;
  expect(got).toMatchObject(counts);
  expect(Object.keys(got.metrics)).toEqual(Object.keys(metrics));
  for (const [name, m] of Object.entries(metrics)) {
    for (const key of ["current", "baseline", "difference", "low", "high"] as const) {
      expect(Math.abs(got.metrics[name]![key] - m[key]), `${name}.${key}: ${got.metrics[name]![key]} vs ${m[key]}`).toBeLessThan(1e-9);
    }
  }
  expect(got.mcnemar).toMatchObject({ baseline_only: mcnemar.baseline_only, current_only: mcnemar.current_only });
  expect(Math.abs(got.mcnemar.p_value - mcnemar.p_value)).toBeLessThan(1e-9);
}
