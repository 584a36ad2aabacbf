// Recall of the negative class: of the negative cases, the share judged so.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const NEGATIVE_RECALL: MetricDescriptor = { name: "negative_recall", tasks: ["documents"], direction: "higher", bounds: SHARE };
