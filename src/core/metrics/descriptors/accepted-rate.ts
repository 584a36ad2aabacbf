// Share of evidence cases whose citations are all accepted.
import type { MetricDescriptor } from "./metric.js";

export const ACCEPTED_RATE: MetricDescriptor = { name: "accepted_rate", tasks: ["evidence"], direction: "higher", trend: ["evidence"], keepBy: ["evidence"] };
