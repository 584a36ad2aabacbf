// The canonical sentence rule (docs/eval.md, "Inputs", docs/comparable-reports.md) and gold alignment by token Jaccard.
// Gold sentence IDs depend on this exact rule, so it mirrors the reference benchmark's
// `re.split(r"(?<=[.!?])\s+", text)` with Python's whitespace set, not JavaScript's.

import { pythonCasefold } from "../python/text.js";
import { isPythonWhitespace, stripPythonWhitespace } from "../python/whitespace.js";

function isSentenceEnd(code: number): boolean {
  return code === 0x2e /* . */ || code === 0x21 /* ! */ || code === 0x3f /* ? */;
}

/**
 * Splits a document into sentences: a break is a run of whitespace right after `.`, `!` or `?`;
 * pieces are stripped and empty ones dropped. Never empty: when nothing remains, the stripped text
 * (possibly "") is the one sentence, so every document has n ≥ 1.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  const keep = (piece: string): void => {
    const stripped = stripPythonWhitespace(piece);
    if (stripped.length > 0) sentences.push(stripped);
  };
  let pieceStart = 0;
  let i = 1;
  while (i < text.length) {
    if (isSentenceEnd(text.charCodeAt(i - 1)) && isPythonWhitespace(text.charCodeAt(i))) {
      keep(text.slice(pieceStart, i));
      // The break consumes the whole whitespace run, as `\s+` does.
      while (i < text.length && isPythonWhitespace(text.charCodeAt(i))) i++;
      pieceStart = i;
    } else {
      i++;
    }
  }
  keep(text.slice(pieceStart));
  return sentences.length > 0 ? sentences : [stripPythonWhitespace(text)];
}

/** The numbered form shown to judges: `[1] first [2] second`. */
export function tagSentences(sentences: readonly string[]): string {
  return sentences.map((sentence, index) => `[${index + 1}] ${sentence}`).join(" ");
}

function isTokenChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
}

/** Alignment tokens: the runs of `[a-z0-9]` in the text case-folded as Python's casefold() does. */
export function jaccardTokens(text: string): Set<string> {
  // Straight into the set: a slice reads one per sentence, and the regex's match array was garbage.
  const folded = pythonCasefold(text);
  const tokens = new Set<string>();
  let start = -1;
  for (let i = 0; i < folded.length; i++) {
    if (isTokenChar(folded.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      tokens.add(folded.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) tokens.add(folded.slice(start));
  return tokens;
}

/** |A ∩ B| / |A ∪ B|; 0 when both sets are empty. */
export function tokenJaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [smaller, larger] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const token of smaller) if (larger.has(token)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/**
 * Gold sentence IDs for evidence strings: each maps to the 1-based index of the sentence with the
 * highest token Jaccard (ties → lowest index; a best score of 0 still maps to the argmax, i.e.
 * sentence 1 when all tie). Evidence strings that are empty after stripping whitespace are
 * ignored. Returns sorted, unique IDs; empty when there is no usable evidence.
 */
export function alignEvidence(sentences: readonly string[], evidence: readonly string[]): number[] {
  // A sentence's tokens are made when a quote is first compared with it: a quote whose tokens are
  // a sentence's ends its search there, and the sentences after it are not tokenized for it.
  const sentenceTokens = new Array<Set<string> | undefined>(sentences.length);
  const gold = new Set<number>();
  for (const quote of evidence) {
    if (stripPythonWhitespace(quote).length === 0) continue;
    const quoteTokens = jaccardTokens(quote);
    let bestIndex = -1;
    let bestScore = -1;
    for (let index = 0; index < sentences.length; index++) {
      const tokens = (sentenceTokens[index] ??= jaccardTokens(sentences[index]!));
      const score = tokenJaccard(quoteTokens, tokens);
      if (score > bestScore) {
        bestScore = score;
        bestIndex = index;
      }
      // No score is above 1, and a tie keeps the lower index: nothing after this can win.
      if (bestScore === 1) break;
    }
    if (bestIndex >= 0) gold.add(bestIndex + 1);
  }
  return [...gold].sort((a, b) => a - b);
}
