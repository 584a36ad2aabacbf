// RevisionCost summed over the pairs.
import { NOT_NEGATIVE, type MetricDescriptor } from "./metric.js";

export const REVISION_COST_TOTAL: MetricDescriptor = { name: "revision_cost_total", tasks: ["pairs"], direction: "lower", bounds: NOT_NEGATIVE };
