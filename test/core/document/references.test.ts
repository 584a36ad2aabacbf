import { describe, expect, it } from "vitest";
import { decimalDigitValue, parseReasoningReferences } from "../../../src/core/document/index.js";
import { reasoningReferenceCountOfBytes } from "../../../src/core/document/references.js";
import { errorCodeOf } from "./error-code.js";

const refs = (text: unknown, n = 10): number[] => parseReasoningReferences(text, n);

describe("parseReasoningReferences", () => {
  it("reads singles, compact ranges and separated ranges, sorted and unique", () => {
    expect(refs("[2]-[4] and [7]")).toEqual([2, 3, 4, 7]);
    expect(refs("Review [1], [3-5], and [3] again.", 8)).toEqual([1, 3, 4, 5]);
    expect(refs("Sentence [1-3] establishes the count; compare [5].", 5)).toEqual([1, 2, 3, 5]);
    expect(refs("[4] then [4-4] then [2]")).toEqual([2, 4]);
  });

  it("drops the separated end when a compact end is present: [3-5]-[7]", () => {
    expect(refs("[3-5]-[7]")).toEqual([3, 4, 5]);
  });

  it("reads spaced or en-dashed pairs as two singles", () => {
    expect(refs("[3] - [5]")).toEqual([3, 5]);
    expect(refs("[3]\u2013[5]")).toEqual([3, 5]);
    expect(refs("[3]-[5]")).toEqual([3, 4, 5]);
  });

  it("handles nested brackets and chains", () => {
    expect(refs("[[3]]")).toEqual([3]);
    expect(refs("[1]-[2]-[3]")).toEqual([1, 2, 3]);
    expect(refs("[1]-[2]-[5]")).toEqual([1, 2, 5]);
  });

  it("accepts leading zeros and Unicode decimal digits", () => {
    expect(refs("[03]")).toEqual([3]);
    expect(refs("[\uff13]")).toEqual([3]); // fullwidth ３
    expect(refs("[\u0663]-[\u06f5]")).toEqual([3, 4, 5]); // Arabic-Indic ٣, extended ۵
    expect(refs("[\u{1d7d9}]")).toEqual([1]); // mathematical double-struck 𝟙 (astral)
    expect(refs("[1\uff10]")).toEqual([10]);
  });

  it("ignores shapes that are not references", () => {
    for (const text of ["[-1]", "[1.5]", "[3,5]", "[a]", "[1-2-3]", "[3 - 5]", "[ 3 ]", "[]", "[3", "3]", "[3-]", "[-3]", "[³]"]) {
      expect(refs(text)).toEqual([]);
    }
  });

  it("rejects references outside the document, reversed ranges and years", () => {
    for (const text of ["[0]", "[00]", "[5-3]", "[5]-[3]", "[11]", "see [2023]", "[1-11]", "[1]-[11]", "[99999999999999999999]"]) {
      expect(errorCodeOf(() => refs(text))).toBe("reasoning_reference_out_of_document");
    }
    expect(() => refs("[11]")).toThrow("reasoning reference is outside the document");
    // The dropped separated end is never range-checked.
    expect(refs("[3-5]-[99]")).toEqual([3, 4, 5]);
  });

  it("checks the sentence count first, even for empty reasoning", () => {
    expect(errorCodeOf(() => parseReasoningReferences("", 0))).toBe("sentence_count_not_positive");
    expect(errorCodeOf(() => parseReasoningReferences("[99]", -1))).toBe("sentence_count_not_positive");
    expect(() => parseReasoningReferences("", 0)).toThrow("sentence_count must be positive");
  });

  it("reads non-string reasoning the way Python's str() exposes brackets", () => {
    expect(refs(null)).toEqual([]);
    expect(refs(undefined)).toEqual([]);
    expect(refs(7)).toEqual([]);
    expect(refs([3])).toEqual([3]);
    expect(refs({ why: "[2-3]" })).toEqual([2, 3]);
  });

  it("counts one, two or more ranges of a text's bytes as the IDs it lists", () => {
    // Two ranges are counted without merging them: every way two can overlap, touch or nest.
    const ranges: string[] = [];
    for (let a = 1; a <= 5; a++) for (let b = a; b <= 5; b++) ranges.push(a === b ? `[${a}]` : `[${a}-${b}]`);
    const texts = [...ranges, ...ranges.flatMap((x) => ranges.map((y) => `${x} ${y}`)), "[1] [3] [5-6] [2]", "[9]", "[2] [0]", "[3-2] [1]"];
    for (const text of texts) {
      const bytes = Buffer.from(`x ${text} y`, "utf8");
      const count = reasoningReferenceCountOfBytes(bytes, 0, bytes.length, 6);
      const rejected = errorCodeOf(() => refs(text, 6));
      expect(count, text).toBe(rejected ?? refs(text, 6).length);
    }
  });

  it("merges many overlapping wide ranges without re-expanding them", () => {
    const n = 200_000;
    expect(parseReasoningReferences(`[1-${n}] `.repeat(5_000) + "[7]", n)).toHaveLength(n);
  });
});

describe("decimalDigitValue", () => {
  it("gives the value of any Nd code point and -1 otherwise", () => {
    expect(decimalDigitValue("7".codePointAt(0)!)).toBe(7);
    expect(decimalDigitValue(0xff10)).toBe(0);
    expect(decimalDigitValue(0xff19)).toBe(9);
    expect(decimalDigitValue(0x0669)).toBe(9);
    // Mathematical digits hold five sets of ten back to back.
    expect(decimalDigitValue(0x1d7ce)).toBe(0);
    expect(decimalDigitValue(0x1d7ff)).toBe(9);
    expect(decimalDigitValue(0x1d7e3)).toBe(1);
    expect(decimalDigitValue("a".codePointAt(0)!)).toBe(-1);
    expect(decimalDigitValue(0x00b3)).toBe(-1); // superscript three is No, not Nd
    expect(decimalDigitValue(0x2163)).toBe(-1); // Roman numeral four is Nl
  });
});
