// Mean share of a case's cited sentences that are gold sentences, over the cases it is defined for.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const LOCALIZATION_PRECISION: MetricDescriptor = { name: "localization_precision", tasks: ["documents"], direction: "higher", bounds: SHARE };
