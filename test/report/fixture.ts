// A hand-built report with every section filled, for the renderer and schema tests.
import type { BaselineComparison, PairedDifference, Report } from "../../src/report/types.js";

const HASH = "a".repeat(64);

export function fixtureReport(overrides: Partial<Report> = {}): Report {
  return {
    schema_version: "1.0.0",
    task: "documents",
    dataset: { path: "datasets/slice.jsonl", sha256: HASH, cases: 4, slice_hash: "b".repeat(64) },
    predictions: { path: "dump.jsonl", sha256: "c".repeat(64), lines: 9, runs: ["0", "1"] },
    system: {
      mari_version: "0.1.0",
      git_commit: "0123456789abcdef0123456789abcdef01234567",
      git_dirty: true,
      node: "v20.20.2",
      icu: "78.2",
      platform: "linux-x64",
      config: { seed: 0 },
      config_hash: "d".repeat(64),
      seed: 0,
      workers: 1,
      judge: null,
    },
    metrics: { accuracy: 0.75, macro_f1: 0.7333333333333334, localization_recall: 0.5, format_valid_rate: 1, tp: 2 },
    runs: {
      "0": { accuracy: 0.5, macro_f1: 0.4666666666666667, localization_recall: 0.5, format_valid_rate: 1, tp: 1 },
      "1": { accuracy: 1, macro_f1: 1, localization_recall: 0.5, format_valid_rate: 1, tp: 3 },
    },
    ci: {
      accuracy: { low: 0.3, high: 0.95, method: "wilson", n: 4 },
      macro_f1: { low: 0.2, high: 1, method: "bootstrap", n: 4, seed: 0, resamples: 1000 },
    },
    spread: { accuracy: { std: 0.25, min: 0.5, max: 1 } },
    breakdowns: { scope: { news: { accuracy: 1, positive_recall: 1 }, "wiki|pipe": { accuracy: 0.5, positive_recall: null } } },
    setcons: { judgment: 0.5, evidence: 0.75, unanimous_rate: 0.5, pairs_used: 1, flipped_count: 2, flipped_cases: ["case-2", "case<3>"] },
    majority: { accuracy: 0.75, macro_f1: 0.7333 },
    gates: [
      { name: "accuracy>=0.6", metric: "accuracy", kind: "min", threshold: 0.6, value: 0.75, passed: true },
      {
        name: "macro_f1>=0.8",
        metric: "macro_f1",
        kind: "min",
        threshold: 0.8,
        value: 0.7333333333333334,
        passed: false,
        detail: "below <threshold> & falling",
      },
    ],
    rejections: { bad_judgment: 2, malformed_json: 1, missing_prediction: 0 },
    rejection_examples: [
      { where: "dump.jsonl:3", reason: "malformed_json", message: "Unexpected token | in\nJSON" },
      { where: "dump.jsonl:5", reason: "bad_judgment", message: "judgment <script>alert(1)</script> is not yes/no" },
    ],
    orphans: { count: 1, examples: ["ghost|id"] },
    invalid: { count: 2, total: 8 },
    histograms: {
      reward_accuracy: [
        { bin: "-1", count: 1 },
        { bin: "0", count: 2 },
        { bin: "1", count: 3 },
        { bin: "<2", count: 2 },
      ],
    },
    elapsed_seconds: 1.25,
    ...overrides,
  };
}

/** A paired comparison on 100 cases, one run a side, with the given metric differences. */
export function fixtureComparison(metrics: Record<string, PairedDifference>, overrides: Partial<BaselineComparison> = {}): BaselineComparison {
  return {
    path: "base/report.json",
    units: { current: 100, baseline: 100 },
    runs: { current: ["0"], baseline: ["0"] },
    matched_cases: 100,
    unmatched_current: 0,
    unmatched_baseline: 0,
    paired_by: "case",
    seed: 0,
    resamples: 1000,
    metrics,
    mcnemar: { baseline_only: 10, current_only: 5, p_value: 0.3017578125, method: "exact_binomial" },
    ...overrides,
  };
}
