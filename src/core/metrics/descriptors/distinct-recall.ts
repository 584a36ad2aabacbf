// Recall of the distinct class: of the distinct cases, the share judged so.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const DISTINCT_RECALL: MetricDescriptor = { name: "distinct_recall", tasks: ["pairs"], direction: "higher", bounds: SHARE };
