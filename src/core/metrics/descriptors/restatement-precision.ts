// Precision of the restatement class: of the cases judged restatement, the share that are.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const RESTATEMENT_PRECISION: MetricDescriptor = { name: "restatement_precision", tasks: ["pairs"], direction: "higher", bounds: SHARE };
