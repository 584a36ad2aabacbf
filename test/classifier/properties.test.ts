// Properties over arbitrary text: the fast paths agree with their definitions, and classify()
// always returns one of the §5 reason shapes without throwing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classify, extractFeatures } from "../../src/core/classifier/index.js";
import { fingerprintOfLower, simpleLower, splitFields } from "../../src/core/classifier/text.js";

// Characters that exercise the whitespace set, casing corner cases, quotes and number shapes.
const PIECES = [
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\u0085",
  "\u00a0",
  "\u2003",
  "\u3000",
  "\ufeff",
  "İ",
  "Σ",
  "ΟΔΟΣ",
  "Straße",
  "café",
  "don't",
  "Bob's",
  "\u2019",
  '"',
  "'",
  "`",
  "[1]",
  "—",
  "2am",
  "02:00",
  "12pm",
  "10.0",
  "1.5",
  "thirty",
  "seven",
  "no longer",
  "not",
  "never",
  "Postgres",
  "PostgreSQL",
  "Redis",
  "iPhone",
  "Qwen3",
  "requests",
  "seconds",
  "stopped",
  "used to",
  "the",
  "team",
  "backups",
  "cache",
  ".",
  ":",
  ",",
  "😀",
];
const text = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { maxLength: 24 }).map((a) => a.join(""));

/** The §2 definition, code point by code point (no fast paths). */
function referenceLower(s: string): string {
  let out = "";
  for (const ch of s) out += ch === "\u0130" ? "i" : ch === "\u03a3" ? "\u03c3" : ch.toLowerCase();
  return out;
}

const REASON =
  /^(identical content|no content tokens|overlap [01]\.\d\d below floor|overlap [01]\.\d\d, no decisive change|value swap: "[a-z0-9.:]+" -> "[a-z0-9.:]+"|polarity: .+)$/;

describe("classifier properties", () => {
  it("simpleLower equals per-code-point simple lower-casing", () => {
    fc.assert(
      fc.property(text, (s) => simpleLower(s) === referenceLower(s)),
      { numRuns: 500 },
    );
  });

  it("the fingerprint fast path equals split-join-lower", () => {
    fc.assert(
      fc.property(text, (s) => fingerprintOfLower(simpleLower(s)) === referenceLower(splitFields(s).join(" "))),
      { numRuns: 500 },
    );
  });

  it("classify never throws, is deterministic, and gives a §5 reason", () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const v = classify(a, b);
        expect(v.reason).toMatch(REASON);
        expect(classify(a, b)).toEqual(v);
        expect(["distinct", "restatement", "update"]).toContain(v.class);
      }),
      { numRuns: 400 },
    );
  });

  it("values are always a subset of tokens", () => {
    fc.assert(
      fc.property(text, (s) => {
        const f = extractFeatures(s);
        for (const v of f.values) expect(f.tokens.has(v)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
