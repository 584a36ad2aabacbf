// The default pair gates (docs/pairs.md, "Default gates"), taken from the reference classifier's own benchmark. They are
// data here; parsing, combining with user gates and evaluating belong to src/gates.

export interface PairGateDefault {
  metric: string;
  kind: "min" | "max";
  threshold: number;
  /** How reports name the gate (1/36 reads better than 0.027777777777777776). */
  name: string;
  /** Why the gate exists, shown beside its result. */
  note: string;
}

export const DEFAULT_PAIR_GATES: readonly PairGateDefault[] = Object.freeze([
  {
    metric: "restatement_to_update_rate",
    kind: "max",
    threshold: 1 / 36,
    name: "restatement_to_update_rate<=1/36",
    note: "default gate: at most 1 restatement in 36 flagged as an update (precision first)",
  },
  {
    metric: "distinct_to_update_rate",
    kind: "max",
    threshold: 0.05,
    name: "distinct_to_update_rate<=0.05",
    note: "default gate: at most 5% of distinct pairs flagged as updates",
  },
  { metric: "update_recall", kind: "min", threshold: 0.6, name: "update_recall>=0.6", note: "default gate: at least 60% of updates detected" },
]);
