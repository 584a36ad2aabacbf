// Precision of the positive class: of the cases judged positive, the share that are.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const POSITIVE_PRECISION: MetricDescriptor = { name: "positive_precision", tasks: ["documents"], direction: "higher", bounds: SHARE };
