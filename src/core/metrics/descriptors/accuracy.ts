// Share of judgments that match the gold label.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const ACCURACY: MetricDescriptor = {
  name: "accuracy",
  tasks: ["documents", "pairs", "evidence"],
  direction: "higher",
  bounds: SHARE,
  interval: { documents: "wilson" },
  paired: { documents: "classes", pairs: "classes", evidence: "classes" },
  summary: true,
  trend: ["documents", "pairs"],
};
