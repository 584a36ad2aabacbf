// Count of format-invalid predictions.
import { NOT_NEGATIVE, type MetricDescriptor } from "./metric.js";

export const FORMAT_INVALID: MetricDescriptor = { name: "format_invalid", tasks: ["documents", "pairs"], direction: "lower", bounds: NOT_NEGATIVE };
