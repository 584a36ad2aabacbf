// Share of located-evidence cases whose every item is accepted.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const LOCATED_ACCEPTED_RATE: MetricDescriptor = { name: "located_accepted_rate", tasks: ["evidence"], direction: "higher", bounds: SHARE };
