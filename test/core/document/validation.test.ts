import { describe, expect, it } from "vitest";
import {
  DOCUMENT_CONTRADICTION_ERROR_MESSAGES,
  DocumentContradictionError,
  pythonTruthy,
  validateDocumentContradiction,
  type DocumentContradictionErrorCode,
} from "../../../src/core/document/index.js";
import { errorCodeOf } from "./error-code.js";

describe("validateDocumentContradiction", () => {
  it("returns the assessment of the first worked example", () => {
    expect(validateDocumentContradiction(10, true, [7, 3, 7], "[2]-[4] and [7]")).toEqual({
      judgment: true,
      evidenceSentenceIds: [3, 7],
      reasoningSentenceIds: [2, 3, 4, 7],
      sentenceCount: 10,
      referenceCoverage: 0.4,
    });
  });

  it("computes reference coverage as cited sentences over sentence count", () => {
    expect(validateDocumentContradiction(10, false, [], "[3-5]-[7]").referenceCoverage).toBe(0.3);
    expect(validateDocumentContradiction(8, false, [], "Review [1], [3-5], and [3] again.")).toMatchObject({
      reasoningSentenceIds: [1, 3, 4, 5],
      referenceCoverage: 0.5,
    });
    expect(validateDocumentContradiction(3, false, [], "Reviewed [1-3].").referenceCoverage).toBe(1);
    expect(validateDocumentContradiction(3, false).referenceCoverage).toBe(0);
  });

  it("defaults to no evidence and empty reasoning", () => {
    expect(validateDocumentContradiction(1, false)).toEqual({
      judgment: false,
      evidenceSentenceIds: [],
      reasoningSentenceIds: [],
      sentenceCount: 1,
      referenceCoverage: 0,
    });
    expect(validateDocumentContradiction(1, 0, undefined, null).judgment).toBe(false);
  });

  it("raises each rule with its code and the reference's message", () => {
    const cases: Array<[DocumentContradictionErrorCode, () => unknown]> = [
      ["sentence_count_not_positive", () => validateDocumentContradiction(0, false)],
      ["non_integer_evidence", () => validateDocumentContradiction(10, true, [2.5])],
      ["evidence_out_of_document", () => validateDocumentContradiction(10, true, [11])],
      ["positive_without_evidence", () => validateDocumentContradiction(10, true, [])],
      ["negative_with_evidence", () => validateDocumentContradiction(10, false, [3, 7])],
      ["reasoning_reference_out_of_document", () => validateDocumentContradiction(10, false, [], "[5-3]")],
    ];
    for (const [code, run] of cases) {
      expect(run).toThrow(new DocumentContradictionError(code));
      expect(run).toThrow(DOCUMENT_CONTRADICTION_ERROR_MESSAGES[code]);
      expect(errorCodeOf(run)).toBe(code);
    }
  });

  it("accepts only integer numbers as IDs", () => {
    for (const bad of [true, false, "3", "[3]", 2.5, NaN, Infinity, null, 3n, [3]]) {
      expect(errorCodeOf(() => validateDocumentContradiction(10, true, [bad]))).toBe("non_integer_evidence");
    }
    expect(errorCodeOf(() => validateDocumentContradiction(10, true, "3" as unknown as unknown[]))).toBe("non_integer_evidence");
    expect(validateDocumentContradiction(10, true, [2.0]).evidenceSentenceIds).toEqual([2]);
  });

  it("rejects IDs below 1 and above the sentence count", () => {
    for (const bad of [0, -0, -1, 11]) {
      expect(errorCodeOf(() => validateDocumentContradiction(10, true, [bad]))).toBe("evidence_out_of_document");
    }
    expect(validateDocumentContradiction(10, true, [1, 10]).evidenceSentenceIds).toEqual([1, 10]);
  });

  it("checks in the reference's order", () => {
    // Sentence count before everything.
    expect(errorCodeOf(() => validateDocumentContradiction(0, true, ["x", 99], "[0]"))).toBe("sentence_count_not_positive");
    // Integer check over the whole list before any range check, wherever the bad entries sit.
    expect(errorCodeOf(() => validateDocumentContradiction(10, true, [99, "3"]))).toBe("non_integer_evidence");
    // Range before judgment consistency.
    expect(errorCodeOf(() => validateDocumentContradiction(10, false, [99]))).toBe("evidence_out_of_document");
    // Judgment consistency before reasoning.
    expect(errorCodeOf(() => validateDocumentContradiction(10, true, [], "[0]"))).toBe("positive_without_evidence");
    expect(errorCodeOf(() => validateDocumentContradiction(10, false, [1], "[0]"))).toBe("negative_with_evidence");
  });

  it("reads the judgment with Python truthiness", () => {
    expect(validateDocumentContradiction(10, "false", [3]).judgment).toBe(true);
    expect(validateDocumentContradiction(10, 1, [3]).judgment).toBe(true);
    expect(validateDocumentContradiction(10, "", []).judgment).toBe(false);
    expect(validateDocumentContradiction(10, [], []).judgment).toBe(false);
  });
});

describe("pythonTruthy", () => {
  it("matches Python's bool()", () => {
    for (const falsy of [false, 0, -0, 0n, "", null, undefined, [], {}, new Map(), new Set(), Object.create(null)]) {
      expect(pythonTruthy(falsy)).toBe(false);
    }
    for (const truthy of [true, 1, -1, NaN, Infinity, 1n, "false", "0", " ", [0], { a: 0 }, new Set([0]), new Date(0), () => 0]) {
      expect(pythonTruthy(truthy)).toBe(true);
    }
  });
});
