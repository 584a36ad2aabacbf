// The default pair gates (SPEC §2.4), taken from the reference classifier's own benchmark. They are
// data here; evaluation belongs to the shared gate code.

export interface PairGateSpec {
  name: string;
  metric: string;
  kind: "min" | "max";
  threshold: number;
}

export const DEFAULT_PAIR_GATES: readonly PairGateSpec[] = Object.freeze([
  // At most one restatement flagged as an update per 36 restatements: the precision-first promise.
  { name: "restatement_to_update_rate<=1/36", metric: "restatement_to_update_rate", kind: "max", threshold: 1 / 36 },
  { name: "distinct_to_update_rate<=0.05", metric: "distinct_to_update_rate", kind: "max", threshold: 0.05 },
  { name: "update_recall>=0.6", metric: "update_recall", kind: "min", threshold: 0.6 },
]);

/** min: value ≥ threshold; max: value ≤ threshold. */
export function gatePasses(spec: Pick<PairGateSpec, "kind" | "threshold">, value: number): boolean {
  return spec.kind === "min" ? value >= spec.threshold : value <= spec.threshold;
}

/**
 * The gates a pair run checks: the defaults, except that a user gate on the same metric in the
 * same direction replaces the default one; user gates follow in their given order.
 */
export function pairGatesWith<T extends Pick<PairGateSpec, "metric" | "kind">>(userGates: readonly T[]): (PairGateSpec | T)[] {
  const overridden = (d: PairGateSpec) => userGates.some((g) => g.metric === d.metric && g.kind === d.kind);
  return [...DEFAULT_PAIR_GATES.filter((d) => !overridden(d)), ...userGates];
}
