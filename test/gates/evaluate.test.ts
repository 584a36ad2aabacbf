import { describe, expect, it } from "vitest";
import { evaluateGates, lookupMetric } from "../../src/gates/evaluate.js";
import { parseGateFlag, parseMaxDropFlag, parseMaxInvalidRate } from "../../src/gates/spec.js";
import type { BaselineComparison } from "../../src/report/types.js";
import { fixtureComparison, fixtureReport } from "../report/fixture.js";

const comparison = fixtureComparison({
  accuracy: { current: 0.7, baseline: 0.75, difference: -0.05, low: -0.1, high: 0 },
  macro_f1: { current: 0.71, baseline: 0.7, difference: 0.01, low: -0.02, high: 0.04 },
});

describe("evaluateGates", () => {
  const report = fixtureReport({ metrics: { accuracy: 0.6, macro_f1: 0.7333, positive_recall: null, revision_cost: 0.4 } });

  it("passes and fails minimum and maximum gates, with float slack at the threshold", () => {
    const results = evaluateGates(report, [
      parseGateFlag("accuracy>=0.6"),
      parseGateFlag("macro_f1>=0.8"),
      parseGateFlag("revision_cost<=0.4"),
      parseGateFlag("revision_cost<=0.39"),
    ]);
    expect(results.map((r) => [r.name, r.value, r.passed])).toEqual([
      ["accuracy>=0.6", 0.6, true],
      ["macro_f1>=0.8", 0.7333, false],
      ["revision_cost<=0.4", 0.4, true],
      ["revision_cost<=0.39", 0.4, false],
    ]);
    const slack = fixtureReport({ metrics: { accuracy: 0.1 + 0.2 - 0.3 + 0.6 - 1e-15 } });
    expect(evaluateGates(slack, [parseGateFlag("accuracy>=0.6")])[0]!.passed).toBe(true);
  });

  it("fails a gate on a missing or null metric with a clear detail", () => {
    const [missing, nullValue] = evaluateGates(report, [parseGateFlag("acuracy>=0.5"), parseGateFlag("positive_recall>=0.5")]);
    expect(missing).toMatchObject({ passed: false, value: null });
    expect(missing!.detail).toMatch(/^no metric "acuracy" in this documents report \(headline metrics: accuracy, macro_f1/);
    expect(nullValue).toMatchObject({ passed: false, value: null, detail: 'metric "positive_recall" has no value in this run (null)' });
  });

  it("reads dotted paths into the report", () => {
    expect(lookupMetric(report, "setcons.judgment")).toBe(0.5);
    expect(lookupMetric(report, "runs.1.accuracy")).toBe(1);
    expect(lookupMetric(report, "breakdowns.scope.wiki|pipe.positive_recall")).toBeNull();
    expect(lookupMetric(report, "setcons.flipped_cases")).toBeUndefined();
    expect(lookupMetric(report, "__proto__.x")).toBeUndefined();
    expect(evaluateGates(report, [parseGateFlag("setcons.judgment>=0.5")])[0]!.passed).toBe(true);
  });

  it("evaluates max-drop on the paired difference and reports McNemar for accuracy", () => {
    const [acc, f1] = evaluateGates(report, [parseMaxDropFlag("accuracy=0.02"), parseMaxDropFlag("macro_f1=0")], { baseline: comparison });
    expect(acc).toMatchObject({ name: "max_drop accuracy=0.02", passed: false });
    expect(acc!.value).toBeCloseTo(0.05, 12);
    expect(acc!.detail).toBe(
      "0.7500 → 0.7000 (difference -0.0500, 95% CI [-0.1000, 0]); paired on 100 cases (every case of both sides is compared); each side's per-case value is the mean over its runs: current 1 run (0), baseline 1 run (0); McNemar p = 0.3018",
    );
    // Decided on fewer cases than the sides hold: said first.
    const [partial] = evaluateGates(report, [parseMaxDropFlag("accuracy=0.02")], { baseline: { ...comparison, unmatched_current: 7 } });
    expect(partial!.detail).toMatch(/^decided on 100 shared cases, not all cases \(7 only in the current run, 0 only in the baseline\)/);
    expect(f1).toMatchObject({ passed: true });
    expect(f1!.value).toBeCloseTo(-0.01, 12);
  });

  it("fails max-drop without a baseline or a compared metric", () => {
    const [noBase] = evaluateGates(fixtureReport(), [parseMaxDropFlag("accuracy=0.02")]);
    expect(noBase).toMatchObject({ passed: false, value: null, detail: "needs --baseline REPORT.json to compare against" });
    const [unknown] = evaluateGates(report, [parseMaxDropFlag("recall=0.02")], { baseline: comparison });
    expect(unknown!.detail).toBe('no paired comparison for "recall" (compared: accuracy, macro_f1)');
  });

  it("evaluates max-invalid-rate as a fraction and as a count, from ctx or the report", () => {
    const invalid = { count: 3, total: 60 };
    const [rate, tight, count, tightCount] = evaluateGates(
      report,
      [parseMaxInvalidRate("0.05"), parseMaxInvalidRate("0.04"), parseMaxInvalidRate("3"), parseMaxInvalidRate("count:2")],
      { invalid },
    );
    expect(rate).toMatchObject({ passed: true, value: 0.05, detail: "3 of 60 predictions invalid (rate 0.0500)" });
    expect(tight).toMatchObject({ passed: false });
    expect(count).toMatchObject({ passed: true, value: 3 });
    expect(tightCount).toMatchObject({ passed: false, value: 3 });
    expect(evaluateGates(fixtureReport(), [parseMaxInvalidRate("0.2")])[0]).toMatchObject({ passed: false, value: 0.25 });
    const none = fixtureReport();
    delete none.invalid;
    expect(evaluateGates(none, [parseMaxInvalidRate("0.2")])[0]).toMatchObject({ passed: false, detail: "this task does not count invalid predictions" });
  });

  it("appends a default gate's note to its detail", () => {
    const gate = { ...parseGateFlag("revision_cost<=0.3"), source: "default" as const, note: "default gate: cost budget" };
    expect(evaluateGates(report, [gate])[0]).toMatchObject({ passed: false, detail: "default gate: cost budget" });
  });
});

describe("max-drop direction", () => {
  it("counts an increase as the drop for lower-is-better metrics (revision_cost)", () => {
    const costs: BaselineComparison = { ...comparison, metrics: { revision_cost: { current: 0.5, baseline: 0.3, difference: 0.2, low: 0.1, high: 0.3 } } };
    const [worse] = evaluateGates(fixtureReport(), [parseMaxDropFlag("revision_cost=0.1")], { baseline: costs });
    expect(worse).toMatchObject({ passed: false });
    expect(worse!.value).toBeCloseTo(0.2, 12);
    const better: BaselineComparison = { ...comparison, metrics: { revision_cost: { current: 0.1, baseline: 0.3, difference: -0.2, low: -0.3, high: -0.1 } } };
    expect(evaluateGates(fixtureReport(), [parseMaxDropFlag("revision_cost=0")], { baseline: better })[0]).toMatchObject({ passed: true });
  });
});
