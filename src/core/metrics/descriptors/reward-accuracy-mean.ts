// Mean accuracy reward (Equation 5, in the range REWARD_RANGES.accuracy).
import type { MetricDescriptor } from "./metric.js";

export const REWARD_ACCURACY_MEAN: MetricDescriptor = { name: "reward_accuracy_mean", tasks: ["documents"], direction: "higher", trend: ["documents"] };
