// Grounding coverage (docs/evidence.md): how much of a claim its quotes cover, with small
// credits for citing more than one source and more than one span.

import { pythonCasefold, roundHalfEven, wordRuns, wordTokens } from "../python/text.js";

export interface CitedQuote {
  readonly document_id: string;
  readonly quote: string;
}

/**
 * round(0.8·coverage + 0.1·source_credit + 0.1·citation_credit, 4), half to even; 0 when the claim
 * has no word tokens or nothing is cited. coverage = share of the claim's casefolded `\w+` tokens
 * found among the quotes' tokens; each credit is min(count, 2) / 2 over distinct documents and
 * over citations.
 */
export function groundingCoverage(claim: string, evidence: readonly CitedQuote[]): number {
  return groundingOfTokens(wordTokens(claim), evidence);
}

/** groundingCoverage of a claim whose distinct tokens (`wordTokens(claim)`) are given; the set is emptied as tokens are found. */
export function groundingOfTokens(missing: Set<string>, evidence: readonly CitedQuote[]): number {
  // The claim's tokens not yet found; each quote on its own gives the tokens of the quotes joined
  // with spaces (casefolding goes code point by code point, and no token crosses a space).
  const claimTokens = missing.size;
  if (claimTokens === 0 || evidence.length === 0) return 0;
  let covered = 0;
  let otherDocument = false;
  const first = evidence[0]!.document_id;
  for (const item of evidence) {
    for (const token of wordRuns(pythonCasefold(item.quote), true)) if (missing.delete(token)) covered++;
    if (item.document_id !== first) otherDocument = true;
  }
  const coverage = covered / claimTokens;
  // min(distinct documents, 2) / 2: only whether a second document is cited matters.
  const sourceCredit = otherDocument ? 1 : 0.5;
  const citationCredit = Math.min(evidence.length, 2) / 2;
  return roundHalfEven(0.8 * coverage + 0.1 * sourceCredit + 0.1 * citationCredit, 4);
}
