// Precision of the negative class: of the cases judged negative, the share that are.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const NEGATIVE_PRECISION: MetricDescriptor = { name: "negative_precision", tasks: ["documents"], direction: "higher", bounds: SHARE };
