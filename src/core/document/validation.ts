// Validation of one judge output (docs/core-document.md): the checks run in the reference's
// order and the first failure rejects it, so a caller can record one stable reason per prediction.

import { DocumentContradictionError, type DocumentContradictionErrorCode } from "./errors.js";
import { parseReasoningReferences, reasoningReferenceCount } from "./references.js";
import { sentenceIdsOrCode } from "./sentence-ids.js";
import { pythonTruthy } from "../python/truthiness.js";

/** A validated judgment. May also be built directly (skipping validation), as in the reference. */
export interface DocumentContradictionAssessment {
  judgment: boolean;
  /** Sorted, unique, 1-based. */
  evidenceSentenceIds: number[];
  /** Sorted, unique, 1-based sentence IDs cited in the reasoning. */
  reasoningSentenceIds: number[];
  sentenceCount: number;
  /** reasoningSentenceIds.length / sentenceCount (paper Equation 7), in [0, 1]. */
  referenceCoverage: number;
}

/** What the scorer needs of a validated judgment: the assessment without the cited IDs listed. */
export interface CheckedJudgment {
  judgment: boolean;
  /** Sorted, unique, 1-based. */
  evidenceSentenceIds: number[];
  /** How many distinct sentences the reasoning cites. */
  referenceCount: number;
}

/**
 * The checks before the reasoning's: the evidence IDs (sorted, unique), or the reason they fail.
 * Once they pass, the judgment is positive exactly when the evidence is not empty.
 */
function checkedEvidence(
  sentenceCount: number,
  judgment: unknown,
  evidenceSentenceIds: readonly unknown[] | undefined,
): number[] | DocumentContradictionErrorCode {
  if (!(sentenceCount >= 1)) return "sentence_count_not_positive";
  const evidence = sentenceIdsOrCode(evidenceSentenceIds, sentenceCount, "non_integer_evidence", "evidence_out_of_document");
  if (typeof evidence === "string") return evidence;
  const positive = pythonTruthy(judgment);
  if (positive && evidence.length === 0) return "positive_without_evidence";
  if (!positive && evidence.length > 0) return "negative_with_evidence";
  return evidence;
}

/**
 * The checks of validateDocumentContradiction, in its order, with the first failure's reason code
 * returned rather than thrown (the per-prediction path: a rejection is data, and an exception per
 * rejected line cost more than the checks).
 */
export function checkDocumentContradiction(
  sentenceCount: number,
  judgment: unknown,
  evidenceSentenceIds?: readonly unknown[],
  reasoning?: unknown,
): CheckedJudgment | DocumentContradictionErrorCode {
  const evidence = checkedEvidence(sentenceCount, judgment, evidenceSentenceIds);
  if (typeof evidence === "string") return evidence;
  const referenceCount = reasoningReferenceCount(reasoning ?? "", sentenceCount);
  if (typeof referenceCount === "string") return referenceCount;
  return { judgment: evidence.length > 0, evidenceSentenceIds: evidence, referenceCount };
}

/**
 * Checks, in order: sentenceCount ≥ 1; evidence IDs are integers; they lie in 1..sentenceCount;
 * a positive judgment has evidence; a negative one has none; reasoning references are in the
 * document. `judgment` is read with Python truthiness (the string "false" is positive). Missing
 * evidence means none; missing reasoning means "". Throws DocumentContradictionError.
 */
export function validateDocumentContradiction(
  sentenceCount: number,
  judgment: unknown,
  evidenceSentenceIds?: readonly unknown[],
  reasoning?: unknown,
): DocumentContradictionAssessment {
  const evidence = checkedEvidence(sentenceCount, judgment, evidenceSentenceIds);
  if (typeof evidence === "string") throw new DocumentContradictionError(evidence);
  const reasoningSentenceIds = parseReasoningReferences(reasoning ?? "", sentenceCount);
  return {
    judgment: evidence.length > 0,
    evidenceSentenceIds: evidence,
    reasoningSentenceIds,
    sentenceCount,
    referenceCoverage: reasoningSentenceIds.length / sentenceCount,
  };
}
