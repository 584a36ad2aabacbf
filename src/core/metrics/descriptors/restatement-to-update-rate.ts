// Share of restatements classified as updates.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const RESTATEMENT_TO_UPDATE_RATE: MetricDescriptor = {
  name: "restatement_to_update_rate",
  tasks: ["pairs"],
  direction: "lower",
  bounds: SHARE,
  trend: ["pairs"],
};
