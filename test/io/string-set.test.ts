import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { CompactStringSet } from "../../src/io/string-set.js";

describe("CompactStringSet", () => {
  it("answers exactly as a Set<string> does (random strings with repeats, non-ASCII and lone surrogates)", () => {
    const piece = fc.constantFrom("a", "b", "é", "\ud800", "\udc00", "😀", "\u0080", "\u3fff", "\u4000", "#", "1");
    fc.assert(
      fc.property(
        fc.array(
          fc.array(piece, { maxLength: 6 }).map((p) => p.join("")),
          { maxLength: 400 },
        ),
        (strings) => {
          const compact = new CompactStringSet();
          const plain = new Set<string>();
          for (const s of strings) {
            expect(compact.add(s)).toBe(!plain.has(s));
            plain.add(s);
          }
          expect(compact.size).toBe(plain.size);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps distinct strings whose naive byte encodings would collide, and grows past its first tables", () => {
    const set = new CompactStringSet();
    // "\u0080" and "\u00c2\u0080"-like confusions of UTF-8 do not apply: each code unit is encoded on its own.
    expect(set.add("\u0080")).toBe(true);
    expect(set.add("\u0000\u0001")).toBe(true);
    expect(set.add("\ud800")).toBe(true);
    expect(set.add("\ufffd")).toBe(true);
    for (let i = 0; i < 50_000; i++) expect(set.add(`id-${i}#${"x".repeat(i % 300)}`)).toBe(true);
    for (let i = 0; i < 50_000; i += 997) expect(set.add(`id-${i}#${"x".repeat(i % 300)}`)).toBe(false);
    expect(set.size).toBe(50_004);
  });
});
