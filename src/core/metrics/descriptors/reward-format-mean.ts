// Mean format reward.
import type { MetricDescriptor } from "./metric.js";

export const REWARD_FORMAT_MEAN: MetricDescriptor = { name: "reward_format_mean", tasks: ["documents"], direction: "higher", trend: ["documents"] };
