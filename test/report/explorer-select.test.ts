// The explorer's bounded selection: everything when it fits; else the failures first (in input
// order, up to the cap), then a seeded sample of the passing cases, and a sentence saying so.
import { describe, expect, it } from "vitest";
import { embedJson, embedJsonPieces } from "../../src/report/escape.js";
import { describeSelection, explorerCap, explorerRunsPerCase, selectCases } from "../../src/report/explorer.js";

describe("explorer selection", () => {
  it("keeps every case when they fit", () => {
    const failed = Uint8Array.from([1, 0, 0, 1]);
    const s = selectCases(failed, 10, 0);
    expect(s.chosen).toEqual([0, 1, 2, 3]);
    expect(describeSelection(4, s, 10, 0)).toBe("All 4 cases are shown.");
  });

  it("takes every failure, then a seeded sample of the rest, in input order", () => {
    const failed = Uint8Array.from({ length: 1000 }, (_, i) => (i % 10 === 3 ? 1 : 0));
    const s = selectCases(failed, 300, 7);
    expect(s.chosen).toHaveLength(300);
    expect(s.chosen).toEqual([...s.chosen].sort((a, b) => a - b));
    expect(s.chosen.filter((i) => failed[i]).length).toBe(100);
    expect(s).toMatchObject({ failures: 100, failuresShown: 100, sampled: 200 });
    expect(selectCases(failed, 300, 7).chosen).toEqual(s.chosen);
    expect(selectCases(failed, 300, 8).chosen).not.toEqual(s.chosen);
    expect(describeSelection(1000, s, 300, 7)).toBe(
      "300 of 1000 cases are shown (cap 300): 100 of 100 failing cases, and 200 of 900 passing cases sampled with seed 7.",
    );
  });

  it("keeps the first failures when they alone exceed the cap", () => {
    const failed = new Uint8Array(50).fill(1);
    const s = selectCases(failed, 20, 0);
    expect(s.chosen).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(describeSelection(50, s, 20, 0)).toContain("20 of 50 failing cases (the first ones, in input order), and 0 of 0 passing");
  });

  it("lowers the cap with many runs, and embeds JSON no text can close", () => {
    expect(explorerCap(1)).toBe(2000);
    expect(explorerCap(5)).toBe(2000);
    expect(explorerCap(1123)).toBe(17);
    // Few cases with many runs: the runs each case carries share out the same unit cap.
    expect(explorerCap(400_000)).toBe(10);
    expect(explorerRunsPerCase(10)).toBe(2000);
    expect(explorerRunsPerCase(2000)).toBe(10);
    expect(explorerCap(400_000, 50) * explorerRunsPerCase(explorerCap(400_000, 50), 50)).toBeLessThanOrEqual(500);
    expect(explorerCap(1, 5)).toBe(5);
    const embedded = embedJson({ reasoning: "</script><script>alert(1)</script>\u2028" });
    expect(embedded).not.toContain("<");
    expect(JSON.parse(embedded)).toEqual({ reasoning: "</script><script>alert(1)</script>\u2028" });
  });
  it("embeds a page's data in pieces that join to embedJson's text, a few cases a piece", () => {
    const data = {
      kind: "documents",
      left: undefined,
      call: () => 1,
      cases: [{ text: "</script>\u2028 Łódź", n: -0 }, undefined, "é\u2029", [1, "<"]],
      after: { "<tag>": ["\u2029"] },
    };
    for (const perPiece of [1, 3, 4, 16]) {
      const pieces = embedJsonPieces(data, "cases", perPiece);
      expect(pieces.join("")).toBe(embedJson(data));
      expect(pieces).toHaveLength(2 + 2 * Math.ceil(data.cases.length / perPiece) - 1);
      expect(pieces.join("")).not.toContain("<");
    }
    for (const value of [
      { cases: [] },
      { cases: "no list", n: 1 },
      { a: 1 },
      {},
      { first: undefined, cases: [1] },
      { cases: Array.from({ length: 40 }, (_, i) => ({ i })) },
    ]) {
      expect(embedJsonPieces(value, "cases").join("")).toBe(embedJson(value));
    }
  });
});
