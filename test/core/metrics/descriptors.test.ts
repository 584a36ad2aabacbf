// The metric declarations (src/core/metrics/descriptors/) against what the code computes: a
// documents metric is a key of the document report's outline, a default series or keep-by metric
// belongs to its task, and the readers see the declared directions.
import { describe, expect, it } from "vitest";
import {
  METRICS,
  inDeclaredOrder,
  isShare,
  lowerIsBetter,
  metricsWith,
  metricsWithInterval,
  pairedFields,
  pairedMetrics,
} from "../../../src/core/metrics/descriptors/index.js";
import { REWARD_RANGES } from "../../../src/core/document/reward-ranges.js";
import { comparableMetrics } from "../../../src/gates/decide.js";
import { pairedComparison } from "../../../src/gates/paired.js";
import { outcomeFromCaseLine } from "../../../src/gates/side-reader.js";
import { renderHtml } from "../../../src/report/html.js";
import { fixtureReport } from "../../report/fixture.js";
import { runMetrics, emptyRunSums } from "../../../src/core/metrics/run-sums.js";
import { DEFAULT_KEEP_BY, DEFAULT_TREND_METRICS } from "../../../src/tasks/trend/run.js";
import { documentReportOutline } from "../../../src/tasks/document/report.js";

describe("metric declarations", () => {
  it("each metric is declared once", () => {
    const names = METRICS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("every documents metric (but SetCons, a table of its own) is one the run sums compute", () => {
    const computed = Object.keys(runMetrics(emptyRunSums()));
    const declared = METRICS.filter((m) => m.tasks.includes("documents") && !m.name.includes(".")).map((m) => m.name);
    expect(declared.filter((name) => !computed.includes(name))).toEqual([]);
  });

  it("a trend default or keep-by metric belongs to its task", () => {
    for (const m of METRICS) for (const task of [...(m.trend ?? []), ...(m.keepBy ?? [])]) expect(m.tasks, m.name).toContain(task);
    for (const task of ["documents", "pairs", "evidence"] as const) expect(metricsWith(task, "keepBy")).toHaveLength(1);
  });

  it("mari trend's defaults are the declared ones, in declaration order", () => {
    expect(DEFAULT_TREND_METRICS["documents"]).toEqual([
      "accuracy",
      "macro_f1",
      "localization_recall",
      "format_valid_rate",
      "setcons.judgment",
      "reference_coverage_mean",
      "reward_accuracy_mean",
      "reward_format_mean",
    ]);
    expect(DEFAULT_KEEP_BY).toEqual({ documents: "macro_f1", pairs: "macro_f1", evidence: "accepted_rate" });
  });

  it("the document outline has an interval for the declared ones; macro-F1's only with resamples", () => {
    expect(Object.keys(documentReportOutline(1000).ci)).toEqual([...metricsWithInterval("documents", "wilson"), "macro_f1"]);
    expect(Object.keys(documentReportOutline(0).ci)).not.toContain("macro_f1");
  });

  it("lower is better for costs and confusions, higher for the rest", () => {
    expect(["revision_cost", "distinct_to_update_rate", "format_invalid"].map(lowerIsBetter)).toEqual([true, true, true]);
    expect(["accuracy", "macro_f1", "accepted_rate", "per_class.positive.f1"].map(lowerIsBetter)).toEqual([false, false, false, false]);
  });

  it("a baseline compares the declared per-case fields: a documents line's values are named by the declarations", () => {
    // A documents run line as the writer shapes it, with each declared field present.
    const line = {
      case_id: "a",
      run: 0,
      label: true,
      judgment: true,
      localization_hit: true,
      exact_localization: false,
      format_valid: true,
      reference_coverage: 0.25,
      reward_accuracy: 2,
    };
    const outcome = outcomeFromCaseLine(line)!;
    expect(Object.keys(outcome.values!)).toEqual(pairedFields("documents").map(([, metric]) => metric));
    expect(outcome.values).toEqual({
      localization_recall: 1,
      exact_localization: 0,
      format_valid_rate: 1,
      reference_coverage_mean: 0.25,
      reward_accuracy_mean: 2,
    });
    // The comparison's metrics are the declared ones, in declaration order, and --max-drop takes exactly those.
    const comparison = pairedComparison([outcome], [{ ...outcome, predicted: "negative" }], { seed: 0, resamples: 0 });
    expect(Object.keys(comparison.metrics)).toEqual(pairedMetrics("documents"));
    expect(comparableMetrics("documents")).toEqual(pairedMetrics("documents"));
    expect(comparableMetrics("pairs")).toEqual(["accuracy", "macro_f1", "revision_cost"]);
    expect(comparableMetrics("evidence")).toEqual([]);
    expect(pairedMetrics("evidence")).toEqual(["accuracy", "accepted_rate"]);
  });

  it("bounds: shares are [0, 1], reward means the declared reward ranges, costs and counts unbounded above", () => {
    for (const m of METRICS) expect(m.bounds[0], m.name).toBeLessThan(m.bounds[1]);
    expect(["accuracy", "update_f1", "located_accepted_rate", "exact_localization"].map(isShare)).toEqual([true, true, true, true]);
    expect(["reward_accuracy_mean", "revision_cost", "format_invalid", "tp", "per_class.positive.f1"].map(isShare)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(METRICS.find((m) => m.name === "reward_accuracy_mean")!.bounds).toEqual(REWARD_RANGES.accuracy);
  });

  it("report.html draws a bar for a declared share only, whatever the value", () => {
    const report = fixtureReport({ metrics: { update_f1: 0.5, revision_cost: 0.5, reward_accuracy_mean: 0.5, accuracy: 0.75 }, ci: {} });
    const html = renderHtml(report);
    const row = (name: string) => html.split("\n").find((l) => l.startsWith(`<tr><td>${name}</td>`))!;
    expect(row("update_f1")).toContain('<svg class="bar"');
    expect(row("accuracy")).toContain('<svg class="bar"');
    expect(row("revision_cost")).not.toContain("<svg");
    expect(row("reward_accuracy_mean")).not.toContain("<svg");
  });

  it("names in declared order: declared first as listed, the others after in their own order", () => {
    expect(inDeclaredOrder(["tp", "localization_recall", "zeta", "macro_f1", "accuracy"])).toEqual([
      "accuracy",
      "macro_f1",
      "localization_recall",
      "tp",
      "zeta",
    ]);
  });
});
