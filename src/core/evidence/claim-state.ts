// Claim states (docs/evidence.md). mari never judges meaning: whether a span entails or contradicts a claim
// is a score the caller supplies; mari only combines it with whether the span resolved.
import { EVIDENCE_OPTIONS } from "../options/evidence.js";

export const CLAIM_STATES = ["supported", "contradicted", "uncertain", "insufficient_evidence"] as const;
export type ClaimState = (typeof CLAIM_STATES)[number];

export function isClaimState(value: unknown): value is ClaimState {
  return typeof value === "string" && (CLAIM_STATES as readonly string[]).includes(value);
}

export interface SpanJudgment {
  /** Whether the cited span resolved against the material the model saw. */
  readonly resolvable: boolean;
  /** Caller's score in [0, 1] that the span entails the claim; absent = no judgment. */
  readonly entailment?: number | null;
  /** Caller's score in [0, 1] that the span contradicts the claim. */
  readonly contradiction?: number | null;
}

export interface ClaimStateThresholds {
  readonly entailment: number;
  readonly contradiction: number;
}

export const DEFAULT_CLAIM_STATE_THRESHOLDS: ClaimStateThresholds = Object.freeze({
  entailment: EVIDENCE_OPTIONS.threshold.default,
  contradiction: EVIDENCE_OPTIONS.threshold.default,
});

/**
 * supported: some resolvable span entails (score ≥ threshold) and none contradicts; contradicted:
 * the reverse; uncertain: both, or neither (inconclusive or unscored); insufficient_evidence: no
 * span resolved at all (missing, malformed or inaccessible evidence).
 */
export function claimState(spans: readonly SpanJudgment[], thresholds: ClaimStateThresholds = DEFAULT_CLAIM_STATE_THRESHOLDS): ClaimState {
  const resolvable = spans.filter((span) => span.resolvable);
  if (resolvable.length === 0) return "insufficient_evidence";
  const entails = resolvable.some((span) => span.entailment != null && span.entailment >= thresholds.entailment);
  const contradicts = resolvable.some((span) => span.contradiction != null && span.contradiction >= thresholds.contradiction);
  if (entails && !contradicts) return "supported";
  if (contradicts && !entails) return "contradicted";
  return "uncertain";
}
