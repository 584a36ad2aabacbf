// RevisionCost per pair: the unit prices of the verdicts' mistakes.
import type { MetricDescriptor } from "./metric.js";

export const REVISION_COST: MetricDescriptor = { name: "revision_cost", tasks: ["pairs"], direction: "lower", summary: true, trend: ["pairs"] };
