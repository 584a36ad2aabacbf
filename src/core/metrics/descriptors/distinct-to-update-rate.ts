// Share of distinct pairs classified as updates.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const DISTINCT_TO_UPDATE_RATE: MetricDescriptor = {
  name: "distinct_to_update_rate",
  tasks: ["pairs"],
  direction: "lower",
  bounds: SHARE,
  trend: ["pairs"],
};
