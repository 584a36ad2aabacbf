// Share of gold-positive cases whose cited sentences are exactly the gold ones.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const EXACT_LOCALIZATION: MetricDescriptor = {
  name: "exact_localization",
  tasks: ["documents"],
  direction: "higher",
  bounds: SHARE,
  paired: { documents: { field: "exact_localization" } },
};
