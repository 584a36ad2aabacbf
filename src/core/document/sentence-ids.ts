// The one check shared by predicted and gold evidence: integer IDs inside 1..sentenceCount.

import { DocumentContradictionError, type DocumentContradictionErrorCode } from "./errors.js";

/**
 * Sorted, de-duplicated sentence IDs, or the reason code of the first failed check (no exception:
 * it runs once per scored prediction). Every entry must be a JavaScript integer number (booleans,
 * numeric strings and fractions are not, as the reference rejects bool, str and float); all entries
 * are type-checked before any is range-checked, as the reference does. `null`/`undefined` mean no
 * IDs; any other non-array counts as non-integer IDs. The result is always a new array.
 */
export function sentenceIdsOrCode(
  ids: readonly unknown[] | null | undefined,
  sentenceCount: number,
  nonIntegerCode: DocumentContradictionErrorCode,
  outOfDocumentCode: DocumentContradictionErrorCode,
): number[] | DocumentContradictionErrorCode {
  if (ids === null || ids === undefined) return [];
  if (!Array.isArray(ids)) return nonIntegerCode;
  const count = ids.length;
  let low = Infinity;
  let high = -Infinity;
  for (let k = 0; k < count; k++) {
    const id: unknown = ids[k];
    if (typeof id !== "number" || !Number.isInteger(id)) return nonIntegerCode;
    if (id < low) low = id;
    if (id > high) high = id;
  }
  if (count === 0) return [];
  if (low < 1 || high > sentenceCount) return outOfDocumentCode;
  if (count === 1) return [low];
  if (count === 2) return low === high ? [low] : [low, high];
  const sorted = (ids as readonly number[]).slice().sort((a, b) => a - b);
  let unique = 1;
  for (let k = 1; k < count; k++) if (sorted[k] !== sorted[unique - 1]) sorted[unique++] = sorted[k]!;
  sorted.length = unique;
  return sorted;
}

/** `sentenceIdsOrCode` for callers that want an exception: throws DocumentContradictionError with the code. */
export function checkedSentenceIds(
  ids: readonly unknown[] | null | undefined,
  sentenceCount: number,
  nonIntegerCode: DocumentContradictionErrorCode,
  outOfDocumentCode: DocumentContradictionErrorCode,
): number[] {
  const checked = sentenceIdsOrCode(ids, sentenceCount, nonIntegerCode, outOfDocumentCode);
  if (typeof checked === "string") throw new DocumentContradictionError(checked);
  return checked;
}
