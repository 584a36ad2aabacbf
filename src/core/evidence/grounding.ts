// Grounding coverage (docs/evidence.md): how much of a claim its quotes cover, with small
// credits for citing more than one source and more than one span.

import { forEachWordRun, isLowSurrogate, pythonCasefold, roundHalfEven, wordRuns, wordTokens } from "../python/text.js";

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
  for (const item of evidence) for (const token of wordRuns(pythonCasefold(item.quote), true)) if (missing.delete(token)) covered++;
  return groundingScore(covered / claimTokens, evidence);
}

/**
 * A text casefolded once, for the tokens of any span of it: casefolding goes code point by code
 * point, so the casefold of `text[a:b]` is `folded[at[a]:at[b]]` and its `\w+` tokens are the runs
 * of `folded` clipped to that range.
 */
export interface FoldedText {
  readonly folded: string;
  /** For each UTF-16 index of the text on a code-point boundary (and its length), the index in `folded`. */
  readonly at: Int32Array;
  /** The `\w+` runs of `folded` (underscore included): start and end indices, and the run itself. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly runs: readonly string[];
}

export function foldedText(text: string): FoldedText {
  const at = new Int32Array(text.length + 1);
  let folded = "";
  let from = 0; // start of the ASCII run not yet appended
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      at[i] = folded.length + i - from;
      continue;
    }
    if (i > from) folded += text.slice(from, i).toLowerCase();
    const width = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
    at[i] = folded.length;
    folded += pythonCasefold(text.slice(i, i + width));
    i += width - 1;
    from = i + 1;
  }
  if (from < text.length) folded += text.slice(from).toLowerCase();
  at[text.length] = folded.length;
  const starts: number[] = [];
  const ends: number[] = [];
  const runs: string[] = [];
  // Equal runs share one string (and its hash, computed once by the first Set lookup).
  const seen = new Map<string, string>();
  forEachWordRun(folded, true, (start, end) => {
    const run = folded.slice(start, end);
    let shared = seen.get(run);
    if (shared === undefined) seen.set(run, (shared = run));
    starts.push(start);
    ends.push(end);
    runs.push(shared);
  });
  return { folded, at, starts: Int32Array.from(starts), ends: Int32Array.from(ends), runs };
}

/** A quote as the span [start, end) (UTF-16 indices) of a folded text. */
export interface FoldedSpan {
  readonly text: FoldedText;
  readonly start: number;
  readonly end: number;
}

/** groundingOfTokens with each quote given as the span of a folded text it was found at (`spans[i]` for `evidence[i]`). */
export function groundingOfSpans(missing: Set<string>, evidence: readonly CitedQuote[], spans: readonly FoldedSpan[]): number {
  const claimTokens = missing.size;
  if (claimTokens === 0 || evidence.length === 0) return 0;
  let covered = 0;
  for (const span of spans) {
    const { folded, at, starts, ends, runs } = span.text;
    const from = at[span.start]!;
    const to = at[span.end]!;
    // The first run that ends after `from`.
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! <= from) lo = mid + 1;
      else hi = mid;
    }
    for (let r = lo; r < runs.length && starts[r]! < to; r++) {
      const start = starts[r]!;
      const end = ends[r]!;
      const token = start >= from && end <= to ? runs[r]! : folded.slice(Math.max(start, from), Math.min(end, to));
      if (missing.delete(token)) covered++;
    }
  }
  return groundingScore(covered / claimTokens, evidence);
}

/** round(0.8·coverage + 0.1·source_credit + 0.1·citation_credit, 4) of cited evidence. */
function groundingScore(coverage: number, evidence: readonly CitedQuote[]): number {
  const first = evidence[0]!.document_id;
  // min(distinct documents, 2) / 2: only whether a second document is cited matters.
  const sourceCredit = evidence.some((item) => item.document_id !== first) ? 1 : 0.5;
  const citationCredit = Math.min(evidence.length, 2) / 2;
  return roundHalfEven(0.8 * coverage + 0.1 * sourceCredit + 0.1 * citationCredit, 4);
}
