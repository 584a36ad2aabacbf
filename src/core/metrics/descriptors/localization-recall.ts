// Among gold-positive cases judged positive, the share citing a gold sentence.
import type { MetricDescriptor } from "./metric.js";

export const LOCALIZATION_RECALL: MetricDescriptor = {
  name: "localization_recall",
  tasks: ["documents"],
  direction: "higher",
  interval: { documents: "wilson" },
  summary: true,
  trend: ["documents"],
};
