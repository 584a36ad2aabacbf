// Mean format reward.
import type { MetricDescriptor } from "./metric.js";
import { REWARD_RANGES } from "../../document/reward-ranges.js";

export const REWARD_FORMAT_MEAN: MetricDescriptor = {
  name: "reward_format_mean",
  tasks: ["documents"],
  direction: "higher",
  bounds: REWARD_RANGES.format,
  trend: ["documents"],
};
