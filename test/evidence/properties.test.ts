// Properties of the code-point and hashing helpers against independent oracles (node:crypto, Array.from).
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bodySections,
  codePointLength,
  findCodePoints,
  codePointOffset,
  encodeUtf8Strict,
  groundingCoverage,
  knowledgeDocument,
  parseFacts,
  parsePythonJson,
  sha256Hex,
  sha256OfText,
  sliceCodePoints,
  toPlainJson,
} from "../../src/core/evidence/index.js";

const unicodeText = fc.string({ unit: "grapheme", maxLength: 40 });
const markdown = fc
  .array(fc.oneof(fc.constantFrom("# A", "## B 😀", "### ß", "#x", "", "text 𝒳", "  # no", "# A"), unicodeText), { maxLength: 12 })
  .map((lines) => lines.join("\n"));

// Fixed seed: the suite must be deterministic.
fc.configureGlobal({ seed: 20261130, numRuns: 200 });

describe("properties", () => {
  it("SHA-256 equals node:crypto for well-formed text", () => {
    fc.assert(
      fc.property(unicodeText, (text) => {
        const expected = createHash("sha256").update(text, "utf8").digest("hex");
        // The TypeScript digest (used for text node:crypto would encode differently) and the one used.
        expect(sha256Hex(encodeUtf8Strict(text))).toBe(expected);
        expect(sha256OfText(text)).toBe(expected);
      }),
    );
  });
  it("a parsed fact's grounding is groundingCoverage of its claim and quotes", () => {
    // Claims that NFKC changes (ﬁ, ①), whose casefold is longer (ß) or has "_", and astral ones.
    const piece = fc.oneof(unicodeText, fc.constantFrom("Straße", "ﬁnance", "①", "İstanbul", "a_b", "😀", " ", "x1"));
    const claimText = fc.array(piece, { maxLength: 8 }).map((parts) => `Claim ${parts.join("")}`);
    const document = knowledgeDocument({ source_id: "s", external_id: "d", revision: "1", body: "Straße ﬁnance 1 a_b x1 😀 İstanbul" });
    fc.assert(
      fc.property(claimText, fc.constantFrom("Straße", "ﬁnance 1", "a_b x1", "😀 İstanbul"), (claim, quote) => {
        const output = { facts: [{ claim, evidence: [{ document_id: document.document_id, quote }] }] };
        const facts = parseFacts([document], output);
        for (const fact of facts) expect(fact.grounding).toBe(groundingCoverage(fact.claim, fact.evidence));
      }),
    );
  });
  it("code-point slicing and lengths agree with Array.from", () => {
    fc.assert(
      fc.property(unicodeText, fc.nat(45), fc.nat(45), (text, a, b) => {
        const points = Array.from(text);
        const [start, end] = a <= b ? [a, b] : [b, a];
        expect(codePointLength(text)).toBe(points.length);
        expect(sliceCodePoints(text, start, end)).toBe(points.slice(start, end).join(""));
      }),
    );
  });
  it("finds the first whole-code-point match, as Python's str.find", () => {
    fc.assert(
      fc.property(unicodeText, unicodeText, (text, needle) => {
        const points = Array.from(text);
        const want = Array.from(needle);
        let expected = -1;
        for (let i = 0; i + want.length <= points.length && expected === -1; i++) {
          if (want.every((p, j) => points[i + j] === p)) expected = i;
        }
        const found = findCodePoints(text, needle);
        expect(found === -1 ? -1 : codePointOffset(text, found)).toBe(expected);
      }),
    );
  });
  it("sections tile the body in code points and their text is the body slice", () => {
    fc.assert(
      fc.property(markdown, (body) => {
        const sections = bodySections(body);
        expect(sections[0]!.start).toBe(0);
        expect(sections[sections.length - 1]!.end).toBe(codePointLength(body));
        for (let i = 1; i < sections.length; i++) expect(sections[i]!.start).toBe(sections[i - 1]!.end);
        for (const s of sections) expect(s.text).toBe(sliceCodePoints(body, s.start, s.end));
      }),
    );
  });
  it("reads the same values as JSON.parse (big ints aside: those stay exact)", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        fc.pre(!/\d{16,}/.test(text));
        expect(toPlainJson(parsePythonJson(text))).toEqual(JSON.parse(text));
      }),
    );
  });
});
