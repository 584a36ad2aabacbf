// The README's library example, run against the package entry point: if this fails, the README lies.
import { describe, expect, it } from "vitest";
import * as mari from "../src/index.js";

describe("package entry point (README example)", () => {
  it("splits, tags, aligns, validates and rewards as the README shows", () => {
    const sentences = mari.splitSentences("The plant opened in 2001. It closed in 1999. Workers were paid well.");
    expect(mari.tagSentences(sentences)).toBe("[1] The plant opened in 2001. [2] It closed in 1999. [3] Workers were paid well.");
    const gold = mari.alignEvidence(sentences, ["It closed in 1999."]);
    expect(gold).toEqual([2]);
    const assessment = mari.validateDocumentContradiction(sentences.length, true, [1, 2], "Compare [1]-[2].");
    expect(mari.documentContradictionRewards(assessment, true, gold, true)).toEqual({
      accuracy: 2,
      referenceCoverage: 0.6666666666666666,
      format: 1,
      matchedEvidenceCount: 1,
      goldEvidenceCount: 1,
    });
    expect(() => mari.validateDocumentContradiction(3, false, [1], "")).toThrow(mari.DocumentContradictionError);
  });

  it("classifies the README's pair and exposes the evidence functions", () => {
    expect(mari.classify("Cache entries expire after a 30 minute TTL.", "Cache entries expire after a 10 minute TTL.", mari.DEFAULT_CONFIG)).toEqual({
      class: "update",
      reason: 'value swap: "10" -> "30"',
    });
    for (const name of ["parseFacts", "documentSections", "validateArtifactEvidence", "validateLocatedEvidence", "evidenceDependencies", "assessDependencies"]) {
      expect(typeof (mari as Record<string, unknown>)[name]).toBe("function");
    }
  });
});
