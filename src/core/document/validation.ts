// Validation of one judge output (docs/core-document.md): the checks run in the reference's
// order and the first failure throws, so a caller can record one stable reason per prediction.

import { DocumentContradictionError } from "./errors.js";
import { parseReasoningReferences } from "./references.js";
import { checkedSentenceIds } from "./sentence-ids.js";
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
  if (!(sentenceCount >= 1)) throw new DocumentContradictionError("sentence_count_not_positive");
  const evidence = checkedSentenceIds(evidenceSentenceIds, sentenceCount, "non_integer_evidence", "evidence_out_of_document");
  const positive = pythonTruthy(judgment);
  if (positive && evidence.length === 0) throw new DocumentContradictionError("positive_without_evidence");
  if (!positive && evidence.length > 0) throw new DocumentContradictionError("negative_with_evidence");
  const reasoningSentenceIds = parseReasoningReferences(reasoning ?? "", sentenceCount);
  return {
    judgment: positive,
    evidenceSentenceIds: evidence,
    reasoningSentenceIds,
    sentenceCount,
    referenceCoverage: reasoningSentenceIds.length / sentenceCount,
  };
}
