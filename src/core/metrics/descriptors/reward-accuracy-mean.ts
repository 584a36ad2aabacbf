// Mean accuracy reward (Equation 5).
import type { MetricDescriptor } from "./metric.js";
import { REWARD_RANGES } from "../../document/reward-ranges.js";

export const REWARD_ACCURACY_MEAN: MetricDescriptor = {
  name: "reward_accuracy_mean",
  tasks: ["documents"],
  direction: "higher",
  bounds: REWARD_RANGES.accuracy,
  paired: { documents: { field: "reward_accuracy" } },
  trend: ["documents"],
};
