// The metric declarations (src/core/metrics/descriptors/) against what the code computes: a
// documents metric is a key of the document report's outline, a default series or keep-by metric
// belongs to its task, and the readers see the declared directions.
import { describe, expect, it } from "vitest";
import { METRICS, lowerIsBetter, metricsWith, metricsWithInterval } from "../../../src/core/metrics/descriptors/index.js";
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
      "reward_accuracy_mean",
      "reference_coverage_mean",
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
});
