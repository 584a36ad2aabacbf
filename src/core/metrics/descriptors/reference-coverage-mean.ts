// Mean reference-coverage reward (Equation 7).
import type { MetricDescriptor } from "./metric.js";

export const REFERENCE_COVERAGE_MEAN: MetricDescriptor = { name: "reference_coverage_mean", tasks: ["documents"], direction: "higher", trend: ["documents"] };
