import { describe, expect, it } from "vitest";
import { DOCUMENT_CLASSES, pairedComparison } from "../../src/gates/paired.js";
import type { PairedOutcome } from "../../src/gates/paired-side.js";

const o = (case_id: string, gold: string, predicted: string, run = "0", values?: Record<string, number | null>): PairedOutcome => ({
  case_id,
  run,
  gold,
  predicted,
  ...(values ? { values } : {}),
});

describe("pairedComparison", () => {
  const current = [
    o("c1", "positive", "positive"),
    o("c2", "negative", "negative"),
    o("c3", "positive", "negative"),
    o("c4", "negative", "positive"),
    o("c5", "positive", "positive"),
  ];
  const baseline = [
    o("c1", "positive", "negative", "a"),
    o("c2", "negative", "negative", "a"),
    o("c3", "positive", "negative", "a"),
    o("c4", "negative", "negative", "a"),
    o("c6", "negative", "negative", "a"),
  ];

  it("pairs single-run sides by case and computes hand-checked differences", () => {
    const result = pairedComparison(current, baseline, { seed: 0, resamples: 200, classes: DOCUMENT_CLASSES });
    expect(result).toMatchObject({ units: { current: 4, baseline: 4 }, matched_cases: 4, unmatched_current: 1, unmatched_baseline: 1, paired_by: "case" });
    expect(result.runs).toEqual({ current: ["0"], baseline: ["a"] });
    expect(result.metrics.accuracy).toMatchObject({ current: 0.5, baseline: 0.5, difference: 0 });
    // current: both classes F1 = 0.5; baseline: positive F1 0, negative P = 2/4, R = 1, F1 = 2/3.
    expect(result.metrics.macro_f1!.current).toBeCloseTo(0.5, 14);
    expect(result.metrics.macro_f1!.baseline).toBeCloseTo(1 / 3, 14);
    expect(result.metrics.macro_f1!.difference).toBeCloseTo(1 / 6, 14);
    expect(result.mcnemar).toMatchObject({ baseline_only: 1, current_only: 1, p_value: 1 });
    for (const diff of Object.values(result.metrics)) expect(diff.low).toBeLessThanOrEqual(diff.high);
  });

  it("is reproducible for a fixed seed and changes with the seed", () => {
    // 60 cases with a varied pattern of right and wrong answers on both sides.
    const labels = (i: number) => (i % 3 === 0 ? "positive" : "negative");
    const flip = (label: string) => (label === "positive" ? "negative" : "positive");
    const cur = Array.from({ length: 60 }, (_, i) => o(`k${i}`, labels(i), i % 5 === 0 ? flip(labels(i)) : labels(i)));
    const base = Array.from({ length: 60 }, (_, i) => o(`k${i}`, labels(i), i % 4 === 0 ? flip(labels(i)) : labels(i)));
    const a = pairedComparison(cur, base, { seed: 7, resamples: 300 });
    const b = pairedComparison(cur, base, { seed: 7, resamples: 300 });
    const c = pairedComparison(cur, base, { seed: 8, resamples: 300 });
    expect(b).toEqual(a);
    expect(c.metrics.macro_f1).not.toEqual(a.metrics.macro_f1);
  });

  it("gives a zero-width interval when the two sides are identical", () => {
    const result = pairedComparison(current, current, { seed: 0, resamples: 100 });
    expect(result.metrics.accuracy).toEqual({ current: 0.6, baseline: 0.6, difference: 0, low: 0, high: 0 });
    expect(result.mcnemar.p_value).toBe(1);
  });

  it("pairs on cases with several runs: per-case means over each side's own runs", () => {
    const cur = [
      o("x", "positive", "positive", "0"),
      o("y", "negative", "negative", "0"),
      o("x", "positive", "negative", "1"),
      o("y", "negative", "negative", "1"),
      o("z", "negative", "negative", "2"),
    ];
    const base = [
      o("x", "positive", "negative", "0"),
      o("y", "negative", "positive", "0"),
      o("x", "positive", "negative", "1"),
      o("y", "negative", "negative", "1"),
    ];
    const result = pairedComparison(cur, base, { seed: 1, resamples: 50 });
    expect(result).toMatchObject({ paired_by: "case", units: { current: 4, baseline: 4 }, matched_cases: 2, unmatched_current: 1, unmatched_baseline: 0 });
    // current: x right in 1 of 2 runs, y in 2 of 2 → (0.5 + 1) / 2; baseline: x 0 of 2, y 1 of 2 → 0.25.
    expect(result.metrics.accuracy).toMatchObject({ current: 0.75, baseline: 0.25, difference: 0.5 });
    // McNemar by majority of runs: x is wrong on both sides (a 1-of-2 tie is not right), y right only now.
    expect(result.mcnemar).toMatchObject({ baseline_only: 0, current_only: 1, p_value: 1, rule: "majority_of_runs" });
  });

  it("pairs a 5-run report with a 1-run baseline on every case (not on run 0 alone)", () => {
    const ids = Array.from({ length: 8 }, (_, i) => `k${i}`);
    const cur = ["0", "1", "2", "3", "4"].flatMap((run) => ids.map((id, i) => o(id, "positive", i < 4 || run === "4" ? "positive" : "negative", run)));
    const base = ids.map((id) => o(id, "positive", "positive", "only"));
    const result = pairedComparison(cur, base, { seed: 0, resamples: 10, classes: DOCUMENT_CLASSES });
    expect(result).toMatchObject({ matched_cases: 8, unmatched_current: 0, unmatched_baseline: 0, units: { current: 40, baseline: 8 } });
    // cases k4…k7 are right in 1 of 5 runs: (4 · 1 + 4 · 0.2) / 8.
    expect(result.metrics.accuracy!.current).toBeCloseTo(0.6, 14);
    expect(result.mcnemar).toMatchObject({ baseline_only: 4, current_only: 0 });
  });

  it("compares per-case values as means over the units that have them", () => {
    const cur = [
      o("p1", "positive", "positive", "0", { localization_recall: 1 }),
      o("p2", "positive", "positive", "0", { localization_recall: 0 }),
      o("n1", "negative", "negative", "0", { localization_recall: null }),
    ];
    const base = [
      o("p1", "positive", "positive", "0", { localization_recall: 0 }),
      o("p2", "positive", "negative", "0", { localization_recall: 0 }),
      o("n1", "negative", "negative", "0", {}),
    ];
    const result = pairedComparison(cur, base, { seed: 0, resamples: 20 });
    expect(result.metrics.localization_recall).toMatchObject({ current: 0.5, baseline: 0, difference: 0.5 });
  });

  it("reports no match without failing", () => {
    const result = pairedComparison([o("a", "positive", "positive")], [o("b", "positive", "positive")], { seed: 0, resamples: 10 });
    expect(result).toMatchObject({ units: { current: 0, baseline: 0 }, matched_cases: 0, unmatched_current: 1, unmatched_baseline: 1 });
    expect(result.metrics.accuracy).toEqual({ current: 0, baseline: 0, difference: 0, low: 0, high: 0 });
  });
});
