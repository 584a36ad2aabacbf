// The metrics mari declares, in the order they are shown (the terminal summary, `mari trend`'s
// default series). A new metric is a file in this folder and a line here.
import type { MetricDescriptor, MetricTask } from "./metric.js";
import { ACCURACY } from "./accuracy.js";
import { MACRO_F1 } from "./macro-f1.js";
import { LOCALIZATION_RECALL } from "./localization-recall.js";
import { FORMAT_VALID_RATE } from "./format-valid-rate.js";
import { SETCONS_JUDGMENT } from "./setcons-judgment.js";
import { REWARD_ACCURACY_MEAN } from "./reward-accuracy-mean.js";
import { REFERENCE_COVERAGE_MEAN } from "./reference-coverage-mean.js";
import { REWARD_FORMAT_MEAN } from "./reward-format-mean.js";
import { FORMAT_INVALID } from "./format-invalid.js";
import { REVISION_COST } from "./revision-cost.js";
import { REVISION_COST_TOTAL } from "./revision-cost-total.js";
import { UPDATE_PRECISION } from "./update-precision.js";
import { UPDATE_RECALL } from "./update-recall.js";
import { RESTATEMENT_TO_UPDATE } from "./restatement-to-update.js";
import { RESTATEMENT_TO_UPDATE_RATE } from "./restatement-to-update-rate.js";
import { DISTINCT_TO_UPDATE } from "./distinct-to-update.js";
import { DISTINCT_TO_UPDATE_RATE } from "./distinct-to-update-rate.js";
import { ACCEPTED_RATE } from "./accepted-rate.js";
import { GROUNDING_MEAN } from "./grounding-mean.js";
import { CLAIM_STATE_ACCURACY } from "./claim-state-accuracy.js";

export const METRICS: readonly MetricDescriptor[] = [
  ACCURACY,
  MACRO_F1,
  LOCALIZATION_RECALL,
  FORMAT_VALID_RATE,
  SETCONS_JUDGMENT,
  REWARD_ACCURACY_MEAN,
  REFERENCE_COVERAGE_MEAN,
  REWARD_FORMAT_MEAN,
  FORMAT_INVALID,
  REVISION_COST,
  REVISION_COST_TOTAL,
  UPDATE_PRECISION,
  UPDATE_RECALL,
  RESTATEMENT_TO_UPDATE,
  RESTATEMENT_TO_UPDATE_RATE,
  DISTINCT_TO_UPDATE,
  DISTINCT_TO_UPDATE_RATE,
  ACCEPTED_RATE,
  GROUNDING_MEAN,
  CLAIM_STATE_ACCURACY,
];

export type { MetricDescriptor, MetricTask } from "./metric.js";

const BY_NAME: ReadonlyMap<string, MetricDescriptor> = new Map(METRICS.map((m) => [m.name, m]));

/** The declared metric of this name, if any. */
export function metricNamed(name: string): MetricDescriptor | undefined {
  return BY_NAME.get(name);
}

/** True when a smaller value is better (undeclared metrics — per-class numbers, counts of good outcomes — are better larger). */
export function lowerIsBetter(name: string): boolean {
  return BY_NAME.get(name)?.direction === "lower";
}

/** The metrics of `task` marked with `flag`, in declaration order. */
export function metricsWith(task: MetricTask, flag: "trend" | "keepBy"): string[] {
  return METRICS.filter((m) => m[flag]?.includes(task)).map((m) => m.name);
}

/** The metrics of `task`'s report with this kind of interval, in declaration order. */
export function metricsWithInterval(task: MetricTask, kind: "wilson" | "bootstrap"): string[] {
  return METRICS.filter((m) => m.interval?.[task] === kind).map((m) => m.name);
}
