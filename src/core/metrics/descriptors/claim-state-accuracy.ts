// Share of claim states that match the gold state.
import type { MetricDescriptor } from "./metric.js";

export const CLAIM_STATE_ACCURACY: MetricDescriptor = { name: "claim_state_accuracy", tasks: ["evidence"], direction: "higher", trend: ["evidence"] };
