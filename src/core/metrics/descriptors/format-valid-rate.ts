// Share of (case, run) predictions that pass the format rules.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const FORMAT_VALID_RATE: MetricDescriptor = {
  name: "format_valid_rate",
  tasks: ["documents"],
  direction: "higher",
  bounds: SHARE,
  interval: { documents: "wilson" },
  paired: { documents: { field: "format_valid" } },
  summary: true,
  trend: ["documents"],
};
