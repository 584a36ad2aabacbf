// Share of (case, run) predictions that pass the format rules.
import type { MetricDescriptor } from "./metric.js";

export const FORMAT_VALID_RATE: MetricDescriptor = {
  name: "format_valid_rate",
  tasks: ["documents"],
  direction: "higher",
  interval: { documents: "wilson" },
  summary: true,
  trend: ["documents"],
};
