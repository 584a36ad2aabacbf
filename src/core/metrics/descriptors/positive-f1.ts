// F1 of the positive class: the harmonic mean of its precision and recall.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const POSITIVE_F1: MetricDescriptor = { name: "positive_f1", tasks: ["documents"], direction: "higher", bounds: SHARE };
