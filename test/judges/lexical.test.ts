import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { classify, DEFAULT_CONFIG } from "../../src/core/classifier/index.js";
import { parseReasoningReferences } from "../../src/core/document/index.js";
import { judgeDocumentLexically, MAX_CITED_FINDINGS, runLexicalJudge } from "../../src/judges/lexical.js";

describe("lexical judge", () => {
  it("finds a value swap between an earlier and a later sentence", () => {
    const r = judgeDocumentLexically([
      "The new bridge opened in 1998 with four lanes.",
      "Traffic across the river grew quickly.",
      "Local shops reported more customers.",
      "The new bridge opened in 2004 with four lanes.",
    ]);
    expect(r.judgment).toBe(true);
    expect(r.evidenceSentenceIds).toEqual([1, 4]);
    expect(r.reasoning).toBe('[1] vs [4]: value swap: "1998" -> "2004"');
    // Only the one pair sharing enough words was handed to the classifier.
    expect(r.comparedPairs).toBe(1);
  });

  it("reads polarity from the later sentence", () => {
    const r = judgeDocumentLexically(["Maria Lopez runs the Berlin office.", "The weather was mild.", "Maria Lopez no longer runs the Berlin office."]);
    expect(r).toMatchObject({ judgment: true, evidenceSentenceIds: [1, 3], reasoning: "[1] vs [3]: polarity: no longer" });
    const flip = judgeDocumentLexically(["The council approved the budget.", "The council did not approve the budget."]);
    expect(flip.reasoning).toBe("[1] vs [2]: polarity: negation flip");
  });

  it("does not flag unrelated sentences or restatements", () => {
    const unrelated = judgeDocumentLexically(["The museum is closed on Mondays.", "Tickets cost twelve euros.", "The garden behind it is free."]);
    expect(unrelated).toMatchObject({ judgment: false, evidenceSentenceIds: [], comparedPairs: 0 });
    const restated = judgeDocumentLexically(["The museum ticket costs 12 euros.", "Visitors praised the collection.", "A museum ticket costs 12 euros."]);
    expect(restated).toMatchObject({ judgment: false, evidenceSentenceIds: [] });
    expect(restated.reasoning).toContain("1 compared sentence pairs");
    expect(judgeDocumentLexically([""]).judgment).toBe(false);
  });

  it("prunes exactly: the same findings as classifying every later-vs-earlier pair", () => {
    const words = [
      "bridge",
      "opened",
      "Berlin",
      "office",
      "not",
      "no longer",
      "12",
      "14",
      "twelve",
      "the",
      "staff",
      "Maria",
      "runs",
      "'main'",
      "'trunk'",
      "deprecated",
      "in",
      "2004",
    ];
    const sentence = fc.array(fc.constantFrom(...words), { minLength: 0, maxLength: 7 }).map((w) => w.join(" ") + ".");
    let positives = 0;
    fc.assert(
      fc.property(fc.array(sentence, { minLength: 1, maxLength: 9 }), (sentences) => {
        const brute: string[] = [];
        for (let j = 0; j < sentences.length; j++) {
          for (let i = 0; i < j; i++) {
            const v = classify(sentences[j]!, sentences[i]!, DEFAULT_CONFIG);
            if (v.class === "update") brute.push(`[${i + 1}] vs [${j + 1}]: ${v.reason}`);
          }
        }
        const r = judgeDocumentLexically(sentences);
        const found = r.findings.map((f) => `[${f.older}] vs [${f.newer}]: ${f.reason}`);
        expect([...found].sort()).toEqual([...brute].sort());
        expect(r.judgment).toBe(brute.length > 0);
        if (r.judgment) positives++;
      }),
      { numRuns: 300, seed: 7 },
    );
    expect(positives).toBeGreaterThan(30); // the generator does produce contradictions
  });

  it("bounds a document with a quadratic number of update verdicts (was: every pair and finding held, out of memory)", () => {
    // 200 sentences alternating two prices: every (10, 20) pair is an update, 100 × 100 of them.
    const sentences = Array.from({ length: 200 }, (_, i) => `The ticket price is ${i % 2 ? 10 : 20} euros.`);
    const r = judgeDocumentLexically(sentences);
    expect(r.findingCount).toBe(10_000);
    expect(r.findings).toHaveLength(MAX_CITED_FINDINGS);
    expect(r.comparedPairs).toBe((200 * 199) / 2);
    const brute: string[] = [];
    for (let j = 0; j < sentences.length && brute.length < MAX_CITED_FINDINGS; j++) {
      for (let i = 0; i < j && brute.length < MAX_CITED_FINDINGS; i++) {
        const v = classify(sentences[j]!, sentences[i]!, DEFAULT_CONFIG);
        if (v.class === "update") brute.push(`[${i + 1}] vs [${j + 1}]: ${v.reason}`);
      }
    }
    expect(r.findings.map((f) => `[${f.older}] vs [${f.newer}]: ${f.reason}`)).toEqual(brute);
    const all = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(r.evidenceSentenceIds).toEqual(all);
    // The reasoning still cites every sentence of an update verdict (reference coverage unchanged).
    expect(parseReasoningReferences(r.reasoning, 200)).toEqual(all);
    expect(r.reasoning).toContain(`; and ${10_000 - MAX_CITED_FINDINGS} more update verdicts involving [`);
    expect(r.reasoning.length).toBeLessThan(100_000);
  });

  it("compares every pair when the overlap floor is zero", () => {
    const r = judgeDocumentLexically(["Alpha beta.", "Gamma delta.", "Epsilon zeta."], { ...DEFAULT_CONFIG, overlapFloor: 0 });
    expect(r.comparedPairs).toBe(3);
  });

  it("emits one structured prediction per case, deterministically", () => {
    const cases = [
      { id: "x", sentences: ["The new bridge opened in 1998.", "The new bridge opened in 2004."] },
      { id: "y", sentences: ["Nothing to see here."] },
    ];
    const first = runLexicalJudge(cases);
    expect(first).toEqual([
      { case_id: "x", run: 0, judgment: true, evidence_sentence_ids: [1, 2], reasoning: '[1] vs [2]: value swap: "1998" -> "2004"' },
      { case_id: "y", run: 0, judgment: false, evidence_sentence_ids: [], reasoning: "No update verdict among 0 compared sentence pairs (lexical baseline)." },
    ]);
    expect(runLexicalJudge(cases)).toEqual(first);
  });
});
