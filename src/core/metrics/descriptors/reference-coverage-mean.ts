// Mean reference-coverage reward (Equation 7).
import type { MetricDescriptor } from "./metric.js";
import { REWARD_RANGES } from "../../document/reward-ranges.js";

export const REFERENCE_COVERAGE_MEAN: MetricDescriptor = {
  name: "reference_coverage_mean",
  tasks: ["documents"],
  direction: "higher",
  bounds: REWARD_RANGES.referenceCoverage,
  paired: { documents: { field: "reference_coverage" } },
  trend: ["documents"],
};
