// Reward components for one validated judgment (docs/core-document.md; Chen et al. 2025,
// Equations 5 and 7). The three rewards stay separate, as GRPO trainers consume them.

import { DocumentContradictionError, type DocumentContradictionErrorCode } from "./errors.js";
import { sentenceIdsOrCode } from "./sentence-ids.js";
import { pythonTruthy } from "../python/truthiness.js";
import type { DocumentContradictionAssessment } from "./validation.js";

export interface DocumentContradictionRewards {
  /**
   * Equation 5, gold-normalised. Gold positive: wrong judgment 0; right but no gold sentence
   * cited −1; otherwise 1 + matched/|gold| ∈ (1, 2]. Gold negative: right 1, wrong 0. Evidence
   * outside the gold is not penalised.
   */
  accuracy: number;
  /** Copied from the assessment (Equation 7), in [0, 1]. */
  referenceCoverage: number;
  /** 1 when the prediction was format-valid, else 0. */
  format: number;
  /** |predicted evidence ∩ gold|, in 0..goldEvidenceCount. */
  matchedEvidenceCount: number;
  /** |gold| after de-duplication. */
  goldEvidenceCount: number;
}

/**
 * Equation 5 from its inputs: gold negative, right 1, wrong 0; gold positive, wrong 0, right with
 * no gold sentence cited −1, else 1 + matched/|gold|. (The cases.jsonl reader re-derives it.)
 */
export function accuracyReward(expectedPositive: boolean, judgmentCorrect: boolean, matched: number, goldCount: number): number {
  if (!expectedPositive) return judgmentCorrect ? 1 : 0;
  if (!judgmentCorrect) return 0;
  return matched === 0 ? -1 : 1 + matched / goldCount;
}

/**
 * Whether `checkedGold` passes these IDs as they are, for a case with a boolean label and `n`
 * sentences: integers rising strictly within 1 … n, present for a positive case only. Lets a
 * caller use a case's gold without the checked copy (the slice reader keeps gold sorted and
 * unique); false only means the caller must ask checkedGold.
 */
export function isCheckedGold(gold: readonly number[], n: number, label: unknown): boolean {
  if (typeof label !== "boolean" || !(n >= 1) || gold.length > 0 !== label) return false;
  let previous = 0;
  for (let g = 0; g < gold.length; g++) {
    const id = gold[g]!;
    if (!(Number.isInteger(id) && id > previous && id <= n)) return false;
    previous = id;
  }
  return true;
}

/**
 * The gold's sentence IDs (sorted, unique) after its checks, in order: integer IDs, inside the
 * document, a positive has gold evidence, a negative has none; else the reason code.
 */
export function checkedGold(
  goldEvidenceSentenceIds: readonly unknown[] | null | undefined,
  sentenceCount: number,
  expectedPositive: boolean,
): number[] | DocumentContradictionErrorCode {
  const gold = sentenceIdsOrCode(goldEvidenceSentenceIds, sentenceCount, "non_integer_gold", "gold_out_of_document");
  if (typeof gold === "string") return gold;
  if (expectedPositive && gold.length === 0) return "positive_gold_without_evidence";
  if (!expectedPositive && gold.length > 0) return "negative_gold_with_evidence";
  return gold;
}

/** |a ∩ b| for two sorted lists of unique IDs. */
export function sortedOverlap(a: readonly number[], b: readonly number[]): number {
  let matched = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      matched++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return matched;
}

/**
 * Checks the gold first (integer IDs, inside the assessed document, a positive has gold evidence,
 * a negative has none; DocumentContradictionError otherwise), then scores. Expected judgment and
 * formatValid are read with Python truthiness; an omitted formatValid means valid.
 */
export function documentContradictionRewards(
  assessment: DocumentContradictionAssessment,
  expectedJudgment: unknown,
  goldEvidenceSentenceIds?: readonly unknown[],
  formatValid?: unknown,
): DocumentContradictionRewards {
  const expectedPositive = pythonTruthy(expectedJudgment);
  const gold = checkedGold(goldEvidenceSentenceIds, assessment.sentenceCount, expectedPositive);
  if (typeof gold === "string") throw new DocumentContradictionError(gold);

  // Identity, as the reference's `is`: a hand-built assessment with a non-boolean judgment is wrong.
  const judgmentCorrect = assessment.judgment === expectedPositive;
  const goldSet = new Set(gold);
  let matched = 0;
  for (const id of new Set(assessment.evidenceSentenceIds)) if (goldSet.has(id)) matched++;

  return {
    accuracy: accuracyReward(expectedPositive, judgmentCorrect, matched, gold.length),
    referenceCoverage: assessment.referenceCoverage,
    format: formatValid === undefined || pythonTruthy(formatValid) ? 1 : 0,
    matchedEvidenceCount: matched,
    goldEvidenceCount: gold.length,
  };
}
