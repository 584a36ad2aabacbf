// Mean of the per-class F1 scores.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const MACRO_F1: MetricDescriptor = {
  name: "macro_f1",
  tasks: ["documents", "pairs"],
  direction: "higher",
  bounds: SHARE,
  interval: { documents: "bootstrap" },
  paired: { documents: "classes", pairs: "classes" },
  summary: true,
  trend: ["documents", "pairs"],
  keepBy: ["documents", "pairs"],
};
