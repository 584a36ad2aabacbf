// Precision of the distinct class: of the cases judged distinct, the share that are.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const DISTINCT_PRECISION: MetricDescriptor = { name: "distinct_precision", tasks: ["pairs"], direction: "higher", bounds: SHARE };
