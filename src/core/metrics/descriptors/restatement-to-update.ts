// Restatements classified as updates (count).
import { NOT_NEGATIVE, type MetricDescriptor } from "./metric.js";

export const RESTATEMENT_TO_UPDATE: MetricDescriptor = { name: "restatement_to_update", tasks: ["pairs"], direction: "lower", bounds: NOT_NEGATIVE };
