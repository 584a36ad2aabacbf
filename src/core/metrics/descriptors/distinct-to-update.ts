// Distinct pairs classified as updates (count).
import type { MetricDescriptor } from "./metric.js";

export const DISTINCT_TO_UPDATE: MetricDescriptor = { name: "distinct_to_update", tasks: ["pairs"], direction: "lower" };
