// The one check shared by predicted and gold evidence: integer IDs inside 1..sentenceCount.

import { DocumentContradictionError, type DocumentContradictionErrorCode } from "./errors.js";

/**
 * Sorted, de-duplicated sentence IDs. Every entry must be a JavaScript integer number (booleans,
 * numeric strings and fractions are not, as the reference rejects bool, str and float); all entries
 * are type-checked before any is range-checked, as the reference does. `null`/`undefined` mean
 * no IDs; any other non-array counts as non-integer IDs.
 */
export function checkedSentenceIds(
  ids: readonly unknown[] | null | undefined,
  sentenceCount: number,
  nonIntegerCode: DocumentContradictionErrorCode,
  outOfDocumentCode: DocumentContradictionErrorCode,
): number[] {
  if (ids === null || ids === undefined) return [];
  if (!Array.isArray(ids)) throw new DocumentContradictionError(nonIntegerCode);
  for (const id of ids) {
    if (typeof id !== "number" || !Number.isInteger(id)) throw new DocumentContradictionError(nonIntegerCode);
  }
  const unique = [...new Set(ids as readonly number[])].sort((a, b) => a - b);
  for (const id of unique) {
    if (id < 1 || id > sentenceCount) throw new DocumentContradictionError(outOfDocumentCode);
  }
  return unique;
}
