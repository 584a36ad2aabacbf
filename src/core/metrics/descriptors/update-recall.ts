// Recall of the update class.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const UPDATE_RECALL: MetricDescriptor = { name: "update_recall", tasks: ["pairs"], direction: "higher", bounds: SHARE, summary: true, trend: ["pairs"] };
