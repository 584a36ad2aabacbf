// Recall of the restatement class: of the restatement cases, the share judged so.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const RESTATEMENT_RECALL: MetricDescriptor = { name: "restatement_recall", tasks: ["pairs"], direction: "higher", bounds: SHARE };
