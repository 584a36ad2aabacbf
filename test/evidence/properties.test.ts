// Properties of the code-point and hashing helpers against independent oracles (node:crypto,
// Array.from, CPython).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bodySections,
  codePointLength,
  findCodePoints,
  codePointOffset,
  encodeUtf8Strict,
  knowledgeDocument,
  parseFacts,
  parsePythonJson,
  sha256Hex,
  sha256OfText,
  sliceCodePoints,
  toPlainJson,
} from "../../src/core/evidence/index.js";
import { SYNC_CHILD } from "../support/children.js";

const unicodeText = fc.string({ unit: "grapheme", maxLength: 40 });
const markdown = fc
  .array(fc.oneof(fc.constantFrom("# A", "## B 😀", "### ß", "#x", "", "text 𝒳", "  # no", "# A"), unicodeText), { maxLength: 12 })
  .map((lines) => lines.join("\n"));

const python = spawnSync("python3", ["--version"], { ...SYNC_CHILD, encoding: "utf8" });
const hasPython = python.status === 0 && /Python 3\.(1[1-9]|[2-9]\d)/.test(python.stdout + python.stderr);

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
  it.skipIf(!hasPython)("a parsed fact's grounding is what CPython computes for its claim and quote", () => {
    // Claims that NFKC changes (ﬁ, ①, Ａ), whose casefold is longer (ß) or splits a word (İ), with
    // "_", astral letters and symbols. Characters only: letters assigned after the Unicode of
    // CPython 3.11 (14.0) would be word characters to Node and not to it.
    const char = fc.constantFrom(..."aSt ß_ﬁ①İ😀𝒳Ａx1.,-");
    const piece = fc.oneof(fc.string({ unit: char, maxLength: 12 }), fc.constantFrom("Straße", "ﬁnance", "①", "İstanbul", "a_b", "😀", " ", "x1"));
    const claimText = fc.array(piece, { maxLength: 8 }).map((parts) => `Claim ${parts.join("")}`);
    const document = knowledgeDocument({ source_id: "s", external_id: "d", revision: "1", body: "Straße ﬁnance 1 a_b x1 😀 İstanbul" });
    const quotes = fc.constantFrom("Straße", "ﬁnance 1", "a_b x1", "😀 İstanbul");
    const pairs = fc.sample(fc.tuple(claimText, quotes), { seed: 20261130, numRuns: 300 });
    const facts = pairs.map(([claim, quote]) => {
      const [fact] = parseFacts([document], { facts: [{ claim, evidence: [{ document_id: document.document_id, quote }] }] });
      return { claim: fact!.claim, quote, grounding: fact!.grounding };
    });
    // The reference's grounding, one quote from one document: \w+ tokens of the casefolded texts,
    // round(0.8 · coverage + 0.1 · source credit (0.5) + 0.1 · citation credit (0.5), 4).
    const script = `import json, re, sys
out = []
for claim, quote in json.load(sys.stdin):
    tokens = set(re.findall(r"\\w+", claim.casefold()))
    covered = tokens & set(re.findall(r"\\w+", quote.casefold()))
    out.append(round(0.8 * (len(covered) / len(tokens)) + 0.1 * 0.5 + 0.1 * 0.5, 4))
print(json.dumps(out))`;
    const result = spawnSync("python3", ["-c", script], { ...SYNC_CHILD, input: JSON.stringify(facts.map((f) => [f.claim, f.quote])), encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(facts.map((f) => f.grounding)).toEqual(JSON.parse(result.stdout));
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
        const points = Array.from(body);
        expect(sections[sections.length - 1]!.end).toBe(points.length);
        for (let i = 1; i < sections.length; i++) expect(sections[i]!.start).toBe(sections[i - 1]!.end);
        for (const s of sections) expect(s.text).toBe(points.slice(s.start, s.end).join(""));
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
