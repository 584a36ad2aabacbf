// `normalizeWord` (docs/classifier.md): the reference's light stemmer for letter tokens.
import { IRREGULAR_VERBS, UNIT_ALIASES } from "./word-lists.js";

/** Tried in this order; the first that matches and leaves at least 3 characters is stripped. */
const SUFFIXES = ["ies", "ing", "ed", "es", "s"] as const;
const MIN_STEM = 3;

function isVowel(ch: string): boolean {
  return ch === "a" || ch === "e" || ch === "i" || ch === "o" || ch === "u";
}

export function normalizeWord(token: string): string {
  let word = IRREGULAR_VERBS.get(token) ?? token;
  for (const suffix of SUFFIXES) {
    if (word.length - suffix.length >= MIN_STEM && word.endsWith(suffix)) {
      word = word.slice(0, -suffix.length) + (suffix === "ies" ? "y" : "");
      break;
    }
  }
  // Both trims run whether or not a suffix was stripped: `jazz` → `jaz`, `code` → `cod`.
  const n = word.length;
  if (n >= 4 && word[n - 1] === word[n - 2] && !isVowel(word[n - 1]!)) word = word.slice(0, -1);
  if (word.length >= 4 && word.endsWith("e")) word = word.slice(0, -1);
  return UNIT_ALIASES.get(word) ?? word;
}
