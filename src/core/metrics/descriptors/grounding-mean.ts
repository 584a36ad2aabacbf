// Mean grounding coverage of the facts.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const GROUNDING_MEAN: MetricDescriptor = { name: "grounding_mean", tasks: ["evidence"], direction: "higher", bounds: SHARE, trend: ["evidence"] };
