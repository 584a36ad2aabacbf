// Among gold-positive cases judged positive, the share citing a gold sentence.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const LOCALIZATION_RECALL: MetricDescriptor = {
  name: "localization_recall",
  tasks: ["documents"],
  direction: "higher",
  bounds: SHARE,
  interval: { documents: "wilson" },
  paired: { documents: { field: "localization_hit" } },
  summary: true,
  trend: ["documents"],
};
