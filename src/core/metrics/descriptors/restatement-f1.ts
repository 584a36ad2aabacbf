// F1 of the restatement class: the harmonic mean of its precision and recall.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const RESTATEMENT_F1: MetricDescriptor = { name: "restatement_f1", tasks: ["pairs"], direction: "higher", bounds: SHARE };
