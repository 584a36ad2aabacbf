// F1 of the update class: the harmonic mean of its precision and recall.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const UPDATE_F1: MetricDescriptor = { name: "update_f1", tasks: ["pairs"], direction: "higher", bounds: SHARE };
