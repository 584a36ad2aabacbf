// Grounding coverage (reference-semantics §7.4): how much of a claim its quotes cover, with small
// credits for citing more than one source and more than one span.

import { roundHalfEven, wordTokens } from "../python/text.js";

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
  const claimTokens = wordTokens(claim);
  if (claimTokens.size === 0 || evidence.length === 0) return 0;
  const quoteTokens = wordTokens(evidence.map((item) => item.quote).join(" "));
  let covered = 0;
  for (const token of claimTokens) if (quoteTokens.has(token)) covered++;
  const coverage = covered / claimTokens.size;
  const sourceCredit = Math.min(new Set(evidence.map((item) => item.document_id)).size, 2) / 2;
  const citationCredit = Math.min(evidence.length, 2) / 2;
  return roundHalfEven(0.8 * coverage + 0.1 * sourceCredit + 0.1 * citationCredit, 4);
}
