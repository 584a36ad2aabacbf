import { describe, expect, it } from "vitest";
import { documentContradictionRewards, validateDocumentContradiction, type DocumentContradictionAssessment } from "../../../src/core/document/index.js";
import { errorCodeOf } from "./error-code.js";

describe("documentContradictionRewards: worked examples (docs/core-document.md)", () => {
  const reasoning = "[2]-[4] and [7]";

  it("correct positive with its gold sentence cited: accuracy 2", () => {
    const assessment = validateDocumentContradiction(10, true, [3, 7], reasoning);
    expect(documentContradictionRewards(assessment, true, [7], true)).toEqual({
      accuracy: 2,
      referenceCoverage: 0.4,
      format: 1,
      matchedEvidenceCount: 1,
      goldEvidenceCount: 1,
    });
  });

  it("correct positive citing no gold sentence: accuracy −1", () => {
    const assessment = validateDocumentContradiction(10, true, [3], reasoning);
    expect(documentContradictionRewards(assessment, true, [7], true)).toMatchObject({
      accuracy: -1,
      matchedEvidenceCount: 0,
    });
  });

  it("missed positive: accuracy 0", () => {
    const assessment = validateDocumentContradiction(10, false, [], reasoning);
    expect(documentContradictionRewards(assessment, true, [7], true)).toMatchObject({
      accuracy: 0,
      matchedEvidenceCount: 0,
      goldEvidenceCount: 1,
    });
  });

  it("half the gold cited: accuracy 1.5", () => {
    const assessment = validateDocumentContradiction(5, true, [2, 4], "Sentence [1-3] establishes the count; compare [5].");
    expect(documentContradictionRewards(assessment, true, [2, 3], true)).toEqual({
      accuracy: 1.5,
      referenceCoverage: 0.8,
      format: 1,
      matchedEvidenceCount: 1,
      goldEvidenceCount: 2,
    });
  });

  it("no overlap with two gold sentences: accuracy −1", () => {
    const assessment = validateDocumentContradiction(4, true, [4]);
    expect(documentContradictionRewards(assessment, true, [1, 2], true).accuracy).toBe(-1);
  });

  it("correct negative with invalid format", () => {
    const assessment = validateDocumentContradiction(3, false, [], "Reviewed [1-3].");
    expect(documentContradictionRewards(assessment, false, [], false)).toEqual({
      accuracy: 1,
      referenceCoverage: 1,
      format: 0,
      matchedEvidenceCount: 0,
      goldEvidenceCount: 0,
    });
  });

  it("one of three gold sentences: 1.3333333333333333 exactly", () => {
    const assessment = validateDocumentContradiction(10, true, [1, 9]);
    const rewards = documentContradictionRewards(assessment, true, [1, 2, 3], true);
    expect(rewards.accuracy).toBe(1.3333333333333333);
    expect(rewards.accuracy).toBe(1 + 1 / 3);
  });
});

describe("documentContradictionRewards: scoring rules", () => {
  it("ignores false-positive evidence and counts duplicates once", () => {
    const assessment = validateDocumentContradiction(10, true, [1, 2, 3, 4, 5]);
    expect(documentContradictionRewards(assessment, true, [2, 2, 3])).toMatchObject({
      accuracy: 2,
      matchedEvidenceCount: 2,
      goldEvidenceCount: 2,
    });
  });

  it("scores a wrong positive on a negative document 0", () => {
    const assessment = validateDocumentContradiction(10, true, [1]);
    expect(documentContradictionRewards(assessment, false).accuracy).toBe(0);
  });

  it("reads expected judgment and format with Python truthiness; an omitted format is valid", () => {
    const negative = validateDocumentContradiction(3, false);
    expect(documentContradictionRewards(negative, 0).format).toBe(1);
    expect(documentContradictionRewards(negative, "", [], "").format).toBe(0);
    expect(documentContradictionRewards(negative, null, undefined, 0).format).toBe(0);
    expect(documentContradictionRewards(negative, false, [], "no").format).toBe(1);
    const positive = validateDocumentContradiction(3, true, [2]);
    expect(documentContradictionRewards(positive, "false", [2]).accuracy).toBe(2);
  });

  it("treats a hand-built non-boolean judgment as wrong, as the reference's identity test does", () => {
    const handBuilt = {
      judgment: 1 as unknown as boolean,
      evidenceSentenceIds: [2],
      reasoningSentenceIds: [],
      sentenceCount: 3,
      referenceCoverage: 0,
    } satisfies DocumentContradictionAssessment;
    expect(documentContradictionRewards(handBuilt, true, [2]).accuracy).toBe(0);
  });

  it("checks the gold in the reference's order", () => {
    const assessment = validateDocumentContradiction(10, false);
    expect(errorCodeOf(() => documentContradictionRewards(assessment, true, [99, "1"]))).toBe("non_integer_gold");
    expect(errorCodeOf(() => documentContradictionRewards(assessment, true, [true]))).toBe("non_integer_gold");
    expect(errorCodeOf(() => documentContradictionRewards(assessment, false, [11]))).toBe("gold_out_of_document");
    expect(errorCodeOf(() => documentContradictionRewards(assessment, true, [0]))).toBe("gold_out_of_document");
    expect(errorCodeOf(() => documentContradictionRewards(assessment, true, []))).toBe("positive_gold_without_evidence");
    expect(errorCodeOf(() => documentContradictionRewards(assessment, true))).toBe("positive_gold_without_evidence");
    expect(errorCodeOf(() => documentContradictionRewards(assessment, false, [1]))).toBe("negative_gold_with_evidence");
    expect(() => documentContradictionRewards(assessment, false, [1])).toThrow("negative gold examples cannot include contradiction evidence");
    expect(() => documentContradictionRewards(assessment, true, [])).toThrow("positive gold examples require evidence sentences");
    expect(() => documentContradictionRewards(assessment, true, [11])).toThrow("gold evidence sentence ID is outside the document");
    expect(() => documentContradictionRewards(assessment, true, ["1"])).toThrow("gold evidence must contain integer sentence IDs");
  });
});
