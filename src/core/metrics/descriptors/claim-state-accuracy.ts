// Share of claim states that match the gold state.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const CLAIM_STATE_ACCURACY: MetricDescriptor = {
  name: "claim_state_accuracy",
  tasks: ["evidence"],
  direction: "higher",
  bounds: SHARE,
  trend: ["evidence"],
};
