// Recall of the positive class: of the positive cases, the share judged so.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const POSITIVE_RECALL: MetricDescriptor = { name: "positive_recall", tasks: ["documents"], direction: "higher", bounds: SHARE };
