// Count of format-invalid predictions.
import type { MetricDescriptor } from "./metric.js";

export const FORMAT_INVALID: MetricDescriptor = { name: "format_invalid", tasks: ["documents", "pairs"], direction: "lower" };
