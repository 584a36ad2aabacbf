// RevisionCost per pair: the unit prices of the mistaken verdicts.
import { NOT_NEGATIVE, type MetricDescriptor } from "./metric.js";

export const REVISION_COST: MetricDescriptor = {
  name: "revision_cost",
  tasks: ["pairs"],
  direction: "lower",
  bounds: NOT_NEGATIVE,
  paired: { pairs: { field: "cost" } },
  summary: true,
  trend: ["pairs"],
};
