// Mean of the per-class F1 scores.
import type { MetricDescriptor } from "./metric.js";

export const MACRO_F1: MetricDescriptor = {
  name: "macro_f1",
  tasks: ["documents", "pairs"],
  direction: "higher",
  interval: { documents: "bootstrap" },
  summary: true,
  trend: ["documents", "pairs"],
  keepBy: ["documents", "pairs"],
};
