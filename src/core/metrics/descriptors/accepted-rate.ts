// Share of evidence cases whose citations are all accepted.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const ACCEPTED_RATE: MetricDescriptor = {
  name: "accepted_rate",
  tasks: ["evidence"],
  direction: "higher",
  bounds: SHARE,
  paired: { evidence: { field: "accepted" } },
  trend: ["evidence"],
  keepBy: ["evidence"],
};
