// SetCons of the judgments: run-to-run agreement over cases.
import { SHARE, type MetricDescriptor } from "./metric.js";

export const SETCONS_JUDGMENT: MetricDescriptor = { name: "setcons.judgment", tasks: ["documents"], direction: "higher", bounds: SHARE, trend: ["documents"] };
