// Share of judgments that match the gold label.
import type { MetricDescriptor } from "./metric.js";

export const ACCURACY: MetricDescriptor = {
  name: "accuracy",
  tasks: ["documents", "pairs", "evidence"],
  direction: "higher",
  interval: { documents: "wilson" },
  summary: true,
  trend: ["documents", "pairs"],
};
