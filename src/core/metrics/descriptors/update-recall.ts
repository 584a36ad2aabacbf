// Recall of the update class.
import type { MetricDescriptor } from "./metric.js";

export const UPDATE_RECALL: MetricDescriptor = { name: "update_recall", tasks: ["pairs"], direction: "higher", summary: true, trend: ["pairs"] };
