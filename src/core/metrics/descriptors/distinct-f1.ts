// F1 of the distinct class: the harmonic mean of its precision and recall.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const DISTINCT_F1: MetricDescriptor = { name: "distinct_f1", tasks: ["pairs"], direction: "higher", bounds: SHARE };
