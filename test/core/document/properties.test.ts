import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DocumentContradictionError,
  alignEvidence,
  documentContradictionRewards,
  parseReasoningReferences,
  splitSentences,
  validateDocumentContradiction,
} from "../../../src/core/document/index.js";

// Text built mostly from the characters the reference grammar cares about.
const referenceish = fc
  .array(fc.constantFrom("[", "]", "-", "0", "1", "2", "7", "9", "３", "٣", " ", "a", ",", "\u2013"), { maxLength: 40 })
  .map((chars) => chars.join(""));

describe("document core properties", () => {
  it("the parser only ever throws DocumentContradictionError", () => {
    fc.assert(
      fc.property(fc.oneof(referenceish, fc.string(), fc.anything()), fc.oneof(fc.integer({ min: -3, max: 50 }), fc.double()), (text, n) => {
        try {
          const ids = parseReasoningReferences(text, n);
          expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
          for (const id of ids) expect(Number.isInteger(id) && id >= 1 && id <= n).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(DocumentContradictionError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("well-formed single references parse to their sorted distinct ids (the case the property above rarely reaches)", () => {
    const doc = fc.integer({ min: 1, max: 40 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        ids: fc.array(fc.integer({ min: 1, max: n }), { minLength: 1, maxLength: 8 }),
        glue: fc.array(fc.constantFrom(" and ", ", ", "; then ", " vs ", ". "), { minLength: 8, maxLength: 8 }),
      }),
    );
    fc.assert(
      fc.property(doc, ({ n, ids, glue }) => {
        const reasoning = "Compare " + ids.map((id, i) => `[${id}]${glue[i]}`).join("") + "done.";
        expect(parseReasoningReferences(reasoning, n)).toEqual([...new Set(ids)].sort((a, b) => a - b));
      }),
      { numRuns: 500 },
    );
  });

  it("handles 100k-bracket adversarial inputs", () => {
    const inputs = [
      "[".repeat(100_000),
      "[1-".repeat(100_000),
      "[1]-".repeat(100_000),
      "[" + "1".repeat(100_000),
      "[1-" + "2".repeat(100_000) + "-",
      "[1]-[" + "１".repeat(100_000),
      "]".repeat(100_000) + "[",
    ];
    for (const input of inputs) expect(parseReasoningReferences(input, 10)).toEqual(input.startsWith("[1]-[") ? [1] : []);
    expect(parseReasoningReferences("[1]".repeat(100_000), 1)).toEqual([1]);
  });

  it("coverage is in [0, 1] and counts distinct cited sentences", () => {
    // Reasoning built from citations the test knows (single, compact range, separated range; ASCII,
    // fullwidth or Arabic-Indic digits) between filler that cites nothing, so the expected set of
    // cited sentences is computed here rather than taken from the parser.
    const digitSets = ["0123456789", "０１２３４５６７８９", "٠١٢٣٤٥٦٧٨٩"];
    const render = (id: number, set: number): string => [...String(id)].map((d) => [...digitSets[set]!][Number(d)]).join("");
    const filler = fc.constantFrom(" and ", ", see ", " 7 ", " x] ", " so ", "[a] ", " [ ", "");
    const scenario = fc.integer({ min: 1, max: 30 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        citations: fc.array(
          fc.record({
            a: fc.integer({ min: 1, max: n }),
            span: fc.integer({ min: 0, max: n }),
            form: fc.constantFrom("single", "compact", "separated"),
            digits: fc.integer({ min: 0, max: 2 }),
            before: filler,
          }),
          { maxLength: 6 },
        ),
        tail: filler,
      }),
    );
    let cited = 0;
    let runs = 0;
    fc.assert(
      fc.property(scenario, ({ n, citations, tail }) => {
        const expected = new Set<number>();
        let reasoning = "";
        for (const c of citations) {
          const b = c.form === "single" ? c.a : Math.min(n, c.a + c.span);
          for (let id = c.a; id <= b; id++) expected.add(id);
          const [x, y] = [render(c.a, c.digits), render(b, c.digits)];
          reasoning += c.before + (c.form === "single" ? `[${x}]` : c.form === "compact" ? `[${x}-${y}]` : `[${x}]-[${y}]`);
        }
        reasoning += tail;
        const assessment = validateDocumentContradiction(n, false, [], reasoning);
        expect(assessment.reasoningSentenceIds).toEqual([...expected].sort((p, q) => p - q));
        expect(assessment.referenceCoverage).toBe(expected.size / n);
        expect(assessment.referenceCoverage).toBeGreaterThanOrEqual(0);
        expect(assessment.referenceCoverage).toBeLessThanOrEqual(1);
        runs++;
        if (expected.size > 0) cited++;
      }),
      { numRuns: 400 },
    );
    // The property is about counting citations: most inputs must have some.
    expect(cited).toBeGreaterThan(0.75 * runs);
  });

  it("rewards stay within their documented ranges", () => {
    const scenario = fc.integer({ min: 1, max: 12 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        judgment: fc.boolean(),
        evidence: fc.uniqueArray(fc.integer({ min: 1, max: n }), { minLength: 1, maxLength: n }),
        expected: fc.boolean(),
        gold: fc.array(fc.integer({ min: 1, max: n }), { minLength: 1, maxLength: n }),
        format: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ n, judgment, evidence, expected, gold, format }) => {
        const assessment = validateDocumentContradiction(n, judgment, judgment ? evidence : []);
        const rewards = documentContradictionRewards(assessment, expected, expected ? gold : [], format);
        const a = rewards.accuracy;
        expect(a === -1 || a === 0 || (a >= 1 && a <= 2)).toBe(true);
        if (!expected) expect([0, 1]).toContain(a);
        if (expected && a > 0) expect(a).toBeGreaterThan(1);
        expect(rewards.format).toBe(format ? 1 : 0);
        expect(rewards.goldEvidenceCount).toBe(expected ? new Set(gold).size : 0);
        expect(rewards.matchedEvidenceCount).toBeGreaterThanOrEqual(0);
        expect(rewards.matchedEvidenceCount).toBeLessThanOrEqual(rewards.goldEvidenceCount);
        expect(rewards.referenceCoverage).toBe(0);
      }),
    );
  });

  it("splitting always yields at least one stripped sentence, and alignment stays inside the document", () => {
    const texty = fc
      .array(fc.constantFrom("a", "B", ".", "!", "?", " ", "\n", "\u0085", "\u001c", "\ufeff", "ß"), { maxLength: 30 })
      .map((chars) => chars.join(""));
    fc.assert(
      fc.property(texty, fc.array(texty, { maxLength: 4 }), (text, evidence) => {
        const sentences = splitSentences(text);
        expect(sentences.length).toBeGreaterThanOrEqual(1);
        for (const id of alignEvidence(sentences, evidence)) {
          expect(id >= 1 && id <= sentences.length).toBe(true);
        }
      }),
    );
  });

  it("alignment picks, for each quote, the lowest-numbered sentence of highest token Jaccard", () => {
    // ASCII only, where Python's casefold is toLowerCase: the oracle tokenizes on its own.
    const tokensOf = (text: string): Set<string> => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
    const jaccard = (a: Set<string>, b: Set<string>): number => {
      const shared = [...a].filter((t) => b.has(t)).length;
      const union = a.size + b.size - shared;
      return union === 0 ? 0 : shared / union;
    };
    const oracle = (sentences: string[], evidence: string[]): number[] => {
      const gold = new Set<number>();
      for (const quote of evidence) {
        if (quote.trim() === "") continue;
        const scores = sentences.map((s) => jaccard(tokensOf(quote), tokensOf(s)));
        gold.add(scores.indexOf(Math.max(...scores)) + 1);
      }
      return [...gold].sort((a, b) => a - b);
    };
    // Few words, so that equal sentences, exact quotes and ties are common.
    const words = fc.array(fc.constantFrom("Budget", "river", "7", "north", "x9", "the", "-", "."), { maxLength: 5 }).map((w) => w.join(" "));
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 6 }), fc.array(fc.oneof(words, fc.nat(5)), { maxLength: 4 }), (sentences, picks) => {
        // A number picks one of the sentences as the quote: written in another case, as it is, or
        // with whitespace around it (a quote that is a sentence's text is found without tokens).
        const evidence = picks.map((p) => {
          if (typeof p !== "number") return p;
          const sentence = sentences[p % sentences.length] ?? "";
          return p % 3 === 0 ? sentence.toUpperCase() : p % 3 === 1 ? sentence : ` ${sentence}\n`;
        });
        expect(alignEvidence(sentences, evidence)).toEqual(oracle(sentences, evidence));
      }),
      { numRuns: 2000 },
    );
  });
});
