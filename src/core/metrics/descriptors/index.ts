// The metrics mari declares, in the order they are shown (the terminal summary, `mari trend`'s
// default series, `mari view`'s rows, a baseline comparison's per-case values). A new metric is a
// file in this folder and a line here.
import type { MetricDescriptor, MetricTask } from "./metric.js";
import { ACCURACY } from "./accuracy.js";
import { MACRO_F1 } from "./macro-f1.js";
import { POSITIVE_PRECISION } from "./positive-precision.js";
import { POSITIVE_RECALL } from "./positive-recall.js";
import { POSITIVE_F1 } from "./positive-f1.js";
import { NEGATIVE_PRECISION } from "./negative-precision.js";
import { NEGATIVE_RECALL } from "./negative-recall.js";
import { NEGATIVE_F1 } from "./negative-f1.js";
import { LOCALIZATION_RECALL } from "./localization-recall.js";
import { LOCALIZATION_PRECISION } from "./localization-precision.js";
import { EXACT_LOCALIZATION } from "./exact-localization.js";
import { FORMAT_VALID_RATE } from "./format-valid-rate.js";
import { SETCONS_JUDGMENT } from "./setcons-judgment.js";
import { REFERENCE_COVERAGE_MEAN } from "./reference-coverage-mean.js";
import { REWARD_ACCURACY_MEAN } from "./reward-accuracy-mean.js";
import { REWARD_FORMAT_MEAN } from "./reward-format-mean.js";
import { FORMAT_INVALID } from "./format-invalid.js";
import { REVISION_COST } from "./revision-cost.js";
import { REVISION_COST_TOTAL } from "./revision-cost-total.js";
import { UPDATE_PRECISION } from "./update-precision.js";
import { UPDATE_RECALL } from "./update-recall.js";
import { UPDATE_F1 } from "./update-f1.js";
import { RESTATEMENT_PRECISION } from "./restatement-precision.js";
import { RESTATEMENT_RECALL } from "./restatement-recall.js";
import { RESTATEMENT_F1 } from "./restatement-f1.js";
import { DISTINCT_PRECISION } from "./distinct-precision.js";
import { DISTINCT_RECALL } from "./distinct-recall.js";
import { DISTINCT_F1 } from "./distinct-f1.js";
import { RESTATEMENT_TO_UPDATE } from "./restatement-to-update.js";
import { RESTATEMENT_TO_UPDATE_RATE } from "./restatement-to-update-rate.js";
import { DISTINCT_TO_UPDATE } from "./distinct-to-update.js";
import { DISTINCT_TO_UPDATE_RATE } from "./distinct-to-update-rate.js";
import { ACCEPTED_RATE } from "./accepted-rate.js";
import { LOCATED_ACCEPTED_RATE } from "./located-accepted-rate.js";
import { GROUNDING_MEAN } from "./grounding-mean.js";
import { CLAIM_STATE_ACCURACY } from "./claim-state-accuracy.js";

export const METRICS: readonly MetricDescriptor[] = [
  ACCURACY,
  MACRO_F1,
  POSITIVE_PRECISION,
  POSITIVE_RECALL,
  POSITIVE_F1,
  NEGATIVE_PRECISION,
  NEGATIVE_RECALL,
  NEGATIVE_F1,
  LOCALIZATION_RECALL,
  LOCALIZATION_PRECISION,
  EXACT_LOCALIZATION,
  FORMAT_VALID_RATE,
  SETCONS_JUDGMENT,
  REFERENCE_COVERAGE_MEAN,
  REWARD_ACCURACY_MEAN,
  REWARD_FORMAT_MEAN,
  FORMAT_INVALID,
  REVISION_COST,
  REVISION_COST_TOTAL,
  UPDATE_PRECISION,
  UPDATE_RECALL,
  UPDATE_F1,
  RESTATEMENT_PRECISION,
  RESTATEMENT_RECALL,
  RESTATEMENT_F1,
  DISTINCT_PRECISION,
  DISTINCT_RECALL,
  DISTINCT_F1,
  RESTATEMENT_TO_UPDATE,
  RESTATEMENT_TO_UPDATE_RATE,
  DISTINCT_TO_UPDATE,
  DISTINCT_TO_UPDATE_RATE,
  ACCEPTED_RATE,
  LOCATED_ACCEPTED_RATE,
  GROUNDING_MEAN,
  CLAIM_STATE_ACCURACY,
];

export type { MetricDescriptor, MetricTask, PairedBy } from "./metric.js";

const BY_NAME: ReadonlyMap<string, MetricDescriptor> = new Map(METRICS.map((m) => [m.name, m]));

/** The declared metric of this name, if any. */
export function metricNamed(name: string): MetricDescriptor | undefined {
  return BY_NAME.get(name);
}

/** True when a smaller value is better (undeclared metrics — per-class numbers, counts of good outcomes — are better larger). */
export function lowerIsBetter(name: string): boolean {
  return BY_NAME.get(name)?.direction === "lower";
}

/** True when the metric is declared a share (its bounds are [0, 1]); undeclared metrics are not. */
export function isShare(name: string): boolean {
  const bounds = BY_NAME.get(name)?.bounds;
  return bounds !== undefined && bounds[0] === 0 && bounds[1] === 1;
}

/** The metrics of `task` marked with `flag`, in declaration order. */
export function metricsWith(task: MetricTask, flag: "trend" | "keepBy"): string[] {
  return METRICS.filter((m) => m[flag]?.includes(task)).map((m) => m.name);
}

/** The metrics of `task`'s report with this kind of interval, in declaration order. */
export function metricsWithInterval(task: MetricTask, kind: "wilson" | "bootstrap"): string[] {
  return METRICS.filter((m) => m.interval?.[task] === kind).map((m) => m.name);
}

/** The metrics a baseline comparison of two `task` reports computes case by case, in declaration order (none for another task). */
export function pairedMetrics(task: string): string[] {
  return METRICS.filter((m) => m.paired?.[task as MetricTask] !== undefined).map((m) => m.name);
}

/** [cases.jsonl field, metric] of each metric `task`'s baseline comparison takes as a per-case mean, in declaration order. */
export function pairedFields(task: MetricTask): Array<[field: string, metric: string]> {
  const fields: Array<[string, string]> = [];
  for (const m of METRICS) {
    const by = m.paired?.[task];
    if (by !== undefined && by !== "classes") fields.push([by.field, m.name]);
  }
  return fields;
}

/**
 * `names` in the declared order: the declared metrics first, as METRICS lists them, then the
 * others as they came.
 */
export function inDeclaredOrder(names: readonly string[]): string[] {
  const rank = (name: string) => {
    const m = BY_NAME.get(name);
    return m === undefined ? METRICS.length : METRICS.indexOf(m);
  };
  return names
    .map((name, i) => ({ name, i, r: rank(name) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.name);
}
