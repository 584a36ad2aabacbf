// Precision of the update class.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const UPDATE_PRECISION: MetricDescriptor = { name: "update_precision", tasks: ["pairs"], direction: "higher", bounds: SHARE, summary: true };
