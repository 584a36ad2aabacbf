// Distinct pairs classified as updates (count).
import { NOT_NEGATIVE, type MetricDescriptor } from "./metric.js";

export const DISTINCT_TO_UPDATE: MetricDescriptor = { name: "distinct_to_update", tasks: ["pairs"], direction: "lower", bounds: NOT_NEGATIVE };
