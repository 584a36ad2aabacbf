// Evaluates gates against a finished report (docs/reports.md, "Gates"). A gate on a value that does not exist
// fails with a detail saying why: a CI gate that silently passes on a typo is worse than none.
import { lowerIsBetter } from "../core/metrics/descriptors/index.js";
import { describePairing, formatNumber, formatSigned } from "../report/format.js";
import type { BaselineComparison, GateResult, MetricValue, Report } from "../report/types.js";
import { gateName, type GateSpec } from "./spec.js";

/**
 * Comparisons allow this much floating-point slack, so `accuracy>=0.6` passes on 0.6 computed as
 * 0.5999999999999999. It is far below any difference a gate is meant to detect.
 */
export const GATE_TOLERANCE = 1e-12;

/**
 * A metric by name: a headline metric (`accuracy`), else a dotted path into the report
 * (`setcons.judgment`, `majority.macro_f1`, `runs.0.accuracy`, `breakdowns.scope.news.accuracy`).
 * Returns undefined when there is no such value, null when it exists but is null.
 */
export function lookupMetric(report: Report, name: string): MetricValue | undefined {
  if (Object.hasOwn(report.metrics, name)) return normalise(report.metrics[name]);
  let node: unknown = report;
  for (const part of name.split(".")) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  if (node === null) return null;
  return typeof node === "number" ? normalise(node) : undefined;
}

function normalise(value: MetricValue | undefined): MetricValue | undefined {
  if (value === undefined || value === null) return value;
  return Number.isFinite(value) ? value : null;
}

function result(gate: GateSpec, value: MetricValue, passed: boolean, detail?: string): GateResult {
  const out: GateResult = { name: gateName(gate), metric: gate.metric, kind: gate.kind, threshold: gate.threshold, value, passed };
  const parts = [detail, gate.note].filter((part): part is string => part !== undefined && part !== "");
  if (parts.length > 0) out.detail = parts.join("; ");
  return out;
}

function evaluateBound(report: Report, gate: GateSpec): GateResult {
  const value = lookupMetric(report, gate.metric);
  if (value === undefined) {
    const known = Object.keys(report.metrics).slice(0, 12).join(", ");
    return result(gate, null, false, `no metric "${gate.metric}" in this ${report.task} report (headline metrics: ${known || "none"})`);
  }
  if (value === null) return result(gate, null, false, `metric "${gate.metric}" has no value in this run (null)`);
  const passed = gate.kind === "min" ? value >= gate.threshold - GATE_TOLERANCE : value <= gate.threshold + GATE_TOLERANCE;
  return result(gate, value, passed);
}

function evaluateDrop(gate: GateSpec, baseline: BaselineComparison | undefined | null): GateResult {
  if (!baseline) return result(gate, null, false, "needs --baseline REPORT.json to compare against");
  const diff = baseline.metrics[gate.metric];
  if (diff === undefined) {
    const known = Object.keys(baseline.metrics).join(", ");
    return result(gate, null, false, `no paired comparison for "${gate.metric}" (compared: ${known || "none"})`);
  }
  if (baseline.matched_cases === 0) return result(gate, null, false, "no case is scored in both the current run and the baseline");
  // The gate's value is how much worse the current run is (baseline − current, or the reverse
  // for lower-is-better metrics); a negative value is an improvement.
  // Where lower is better (the metric declarations say), getting worse is a rise.
  const drop = lowerIsBetter(gate.metric) ? diff.current - diff.baseline : diff.baseline - diff.current;
  const passed = drop <= gate.threshold + GATE_TOLERANCE;
  let detail = `${formatNumber(diff.baseline)} → ${formatNumber(diff.current)} (difference ${formatSigned(diff.difference)}, 95% CI [${formatSigned(diff.low)}, ${formatSigned(diff.high)}]); ${describePairing(baseline)}`;
  // Decided on fewer cases than the two sides hold: said first, so nobody misreads the verdict.
  if (baseline.unmatched_current + baseline.unmatched_baseline > 0) {
    detail = `decided on ${baseline.matched_cases} shared cases, not all cases (${baseline.unmatched_current} only in the current run, ${baseline.unmatched_baseline} only in the baseline); ${detail}`;
  }
  if (gate.metric === "accuracy") detail += `; McNemar p = ${formatNumber(baseline.mcnemar.p_value)}`;
  if (baseline.warning) detail += `; ${baseline.warning}`;
  return result(gate, drop, passed, detail);
}

function evaluateInvalid(gate: GateSpec, invalid: { count: number; total: number } | undefined): GateResult {
  if (!invalid) return result(gate, null, false, "this task does not count invalid predictions");
  const rate = invalid.total === 0 ? 0 : invalid.count / invalid.total;
  const detail = `${invalid.count} of ${invalid.total} predictions invalid (rate ${formatNumber(rate)})`;
  if (gate.isCount) return result(gate, invalid.count, invalid.count <= gate.threshold, detail);
  return result(gate, rate, rate <= gate.threshold + GATE_TOLERANCE, detail);
}

/** One result per gate, in the order given. The baseline and invalid counts default to the report's own. */
export function evaluateGates(
  report: Report,
  gates: readonly GateSpec[],
  ctx: { baseline?: BaselineComparison | null; invalid?: { count: number; total: number } } = {},
): GateResult[] {
  const baseline = ctx.baseline ?? report.baseline;
  const invalid = ctx.invalid ?? report.invalid;
  return gates.map((gate) => {
    switch (gate.kind) {
      case "min":
      case "max":
        return evaluateBound(report, gate);
      case "max_drop":
        return evaluateDrop(gate, baseline);
      case "max_invalid_rate":
        return evaluateInvalid(gate, invalid);
    }
  });
}
