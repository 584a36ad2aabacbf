// F1 of the negative class: the harmonic mean of its precision and recall.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const NEGATIVE_F1: MetricDescriptor = { name: "negative_f1", tasks: ["documents"], direction: "higher", bounds: SHARE };
