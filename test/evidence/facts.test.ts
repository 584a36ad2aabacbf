// parseFacts and grounding coverage: docs/evidence.md, the worked parse of §7.5 and every message.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  documentLookup,
  EvidenceValueError,
  groundingCoverage,
  knowledgeDocument,
  type MalformedModelOutput,
  normalizeClaim,
  parseFacts,
  parsePythonJson,
  PyFloat,
  type KnowledgeDocument,
} from "../../src/core/evidence/index.js";

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const BODY = "Intro\n# Refunds\nEnterprise refunds close after 30 days.\n### Enterprise Plan\nClose after 30 days.\n# Refunds\nDup.\n";
const doc = knowledgeDocument({ source_id: "kb", external_id: "refunds", title: "Refunds", body: BODY, revision: "v3" });
const D = doc.document_id;
const other = knowledgeDocument({ source_id: "kb", external_id: "hours", body: "Open daily.\nDup.\n", revision: "h1" });

function fact(evidence: unknown, claim: unknown = "Plans close after 30 days.") {
  return { facts: [{ claim, evidence }] };
}

function failure(documents: KnowledgeDocument[], output: unknown): { code: string; message: string; name: string } {
  try {
    parseFacts(documents, output);
  } catch (err) {
    const e = err as MalformedModelOutput;
    return { code: e.code ?? "", message: e.message, name: e.name };
  }
  throw new Error("expected parseFacts to raise");
}

describe("the worked parse (§7.5)", () => {
  it("rejects a quote found in two sections without section_id", () => {
    expect(failure([doc], fact([{ document_id: D, quote: "after 30 days." }]))).toEqual({
      code: "ambiguous_section",
      message: "facts-extract-v3 repeated evidence quote requires section_id",
      name: "MalformedModelOutput",
    });
  });
  it("binds offsets, revision and section revision once section_id picks the section", () => {
    const [result] = parseFacts([doc], fact([{ document_id: D, quote: "after 30 days.", section_id: "refunds/enterprise-plan" }]));
    expect(result!.evidence).toEqual([
      {
        document_id: "kb/refunds",
        revision: "v3",
        quote: "after 30 days.",
        start: 82,
        end: 96,
        section_id: "refunds/enterprise-plan",
        section_revision: sha(BODY.slice(56, 97)),
      },
    ]);
    expect(result!.evidence[0]!.section_revision.startsWith("c0afba1b")).toBe(true);
  });
  it("finds Dup. in refunds-2", () => {
    const [result] = parseFacts([doc], fact([{ document_id: D, quote: "Dup." }], "Dup"));
    expect(result!.evidence.map((e) => [e.section_id, e.start, e.end])).toEqual([["refunds-2", 107, 111]]);
  });
  it("rejects a quote that crosses a heading boundary even without section_id", () => {
    expect(BODY.includes("days.\n# Refunds")).toBe(true);
    expect(failure([doc], fact([{ document_id: D, quote: "days.\n# Refunds" }])).message).toBe(
      "facts-extract-v3 evidence quote is not present in the requested section",
    );
  });
});

describe("envelope, claims and evidence entries (§7.1–§7.2)", () => {
  it("checks the envelope", () => {
    for (const output of [null, "text", [], 3]) {
      expect(failure([doc], output)).toMatchObject({ code: "bad_envelope", message: "facts-extract-v3 must return a JSON object" });
    }
    for (const output of [{}, { facts: null }, { facts: {} }, { facts: [1] }, { facts: [{}, "x"] }]) {
      expect(failure([doc], output)).toMatchObject({ code: "bad_envelope", message: "facts-extract-v3.facts must be a JSON array of objects" });
    }
    expect(parseFacts([doc], { facts: [] })).toEqual([]);
  });
  it("requires a claim: 0, False, None and whitespace all fail", () => {
    for (const claim of [0, false, null, "  \n", "", new PyFloat(0), [], {}]) {
      expect(failure([doc], fact([{ document_id: D, quote: "Dup." }], claim))).toMatchObject({
        code: "missing_claim",
        message: "fact claim is required",
      });
    }
  });
  it("takes str() of a non-string claim", () => {
    const [result] = parseFacts([doc], { facts: [{ claim: new PyFloat(30), evidence: ["Dup."] }] });
    expect(result!.claim).toBe("30.0");
  });
  it("requires a non-empty evidence array of objects or strings", () => {
    for (const evidence of [undefined, null, [], "Dup.", {}]) {
      expect(failure([doc], fact(evidence))).toMatchObject({ code: "no_evidence", message: "facts-extract-v3 evidence must be a non-empty array" });
    }
    for (const entry of [1, null, ["Dup."], true]) {
      expect(failure([doc], fact([entry]))).toMatchObject({ code: "bad_evidence_entry", message: "facts-extract-v3 evidence entries must be objects" });
    }
  });
  it("checks an unknown document before an empty quote", () => {
    expect(failure([doc, other], fact([{ document_id: "kb/nope", quote: "" }]))).toMatchObject({
      code: "unknown_document",
      message: "facts-extract-v3 references an unknown document",
    });
    expect(failure([doc], fact([{ document_id: D, quote: "  " }]))).toMatchObject({
      code: "empty_quote",
      message: "facts-extract-v3 evidence quote is required",
    });
    expect(failure([doc], fact([{ document_id: D, quote: "after 60 days" }]))).toMatchObject({
      code: "quote_not_in_document",
      message: "facts-extract-v3 evidence quote is not present in the document",
    });
  });
  it("matches quotes exactly and case-sensitively after stripping", () => {
    expect(failure([doc], fact([{ document_id: D, quote: "dup." }])).code).toBe("quote_not_in_document");
    const [result] = parseFacts([doc], fact([{ document_id: D, quote: "\n Dup.\t" }], "Dup"));
    expect(result!.evidence[0]!.quote).toBe("Dup.");
  });
  it("rejects a requested section that does not hold the quote", () => {
    expect(failure([doc], fact([{ document_id: D, quote: "Dup.", section_id: "refunds" }])).code).toBe("quote_not_in_section");
    expect(failure([doc], fact([{ document_id: D, quote: "Dup.", section_id: "nowhere" }])).code).toBe("quote_not_in_section");
  });
  it("uses the first occurrence when a quote repeats inside one section", () => {
    const d = knowledgeDocument({ source_id: "s", external_id: "r", body: "# A\nyes yes\n", revision: "1" });
    const [result] = parseFacts([d], fact([{ document_id: d.document_id, quote: "yes" }], "yes"));
    expect([result!.evidence[0]!.start, result!.evidence[0]!.end]).toEqual([4, 7]);
  });
  it("ignores offsets and revisions supplied by the model", () => {
    const [result] = parseFacts([doc], fact([{ document_id: D, quote: "Dup.", start: 0, end: 4, revision: "v9", section_revision: "bad" }], "Dup"));
    expect(result!.evidence[0]).toMatchObject({ revision: "v3", start: 107, end: 111 });
  });
});

describe("document resolution", () => {
  it("fills in the document of a bare-string quote only when exactly one body holds it", () => {
    const [one] = parseFacts([doc, other], fact(["Open daily."], "Open daily"));
    expect(one!.evidence[0]!.document_id).toBe(other.document_id);
    // "Dup." is in both bodies: no document, so it is unknown.
    expect(failure([doc, other], fact(["Dup."])).code).toBe("unknown_document");
  });
  it("rescues a wrong or missing id when exactly one document was supplied (object entries)", () => {
    const [result] = parseFacts([doc], fact([{ document_id: "invented/id", quote: "Dup." }], "Dup"));
    expect(result!.evidence[0]!.document_id).toBe(D);
    expect(failure([doc, other], fact([{ document_id: "invented/id", quote: "Open daily." }])).code).toBe("unknown_document");
  });
  it("collapses equal duplicates and raises ValueError on conflicting documents before parsing", () => {
    expect(parseFacts([doc, doc], fact(["Dup."], "Dup"))).toHaveLength(1);
    const changed = knowledgeDocument({ source_id: "kb", external_id: "refunds", body: BODY, revision: "v4" });
    let error: unknown;
    try {
      parseFacts([doc, changed], "not even an object");
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(EvidenceValueError);
    expect((error as EvidenceValueError).message).toBe(
      "conflicting documents share document_id 'kb/refunds' (revisions 'v3' and 'v4'); provide one consistent document per document_id or namespace the documents",
    );
    expect((error as EvidenceValueError).code).toBe("conflicting_documents");
    expect(() => documentLookup([doc, changed])).toThrow(EvidenceValueError);
  });
  it("derives code-point offsets in bodies with emoji", () => {
    const d = knowledgeDocument({ source_id: "kb", external_id: "e", body: "😀 refunds close\n# 🚀 Plan\n𝒳 refunds 😀 close.\n", revision: "1" });
    const [first] = parseFacts([d], fact([{ document_id: d.document_id, quote: "refunds close" }], "refunds close"));
    expect(first!.evidence[0]).toMatchObject({ section_id: "preamble", start: 2, end: 15 });
    const [second] = parseFacts([d], fact([{ document_id: d.document_id, quote: "refunds 😀 close." }], "refunds close"));
    // Section "plan" starts at 16; its heading line is 9 code points; "𝒳 " is 2 (3 UTF-16 units).
    expect(second!.evidence[0]).toMatchObject({ section_id: "plan", start: 16 + 9 + 2, end: 16 + 9 + 2 + 16 });
  });
  it("does not find a lone surrogate inside a surrogate pair", () => {
    const d = knowledgeDocument({ source_id: "kb", external_id: "e", body: "a 😀 b", revision: "1" });
    expect(failure([d], fact([{ document_id: d.document_id, quote: "\ud83d" }])).code).toBe("quote_not_in_document");
  });
});

describe("claims: de-duplication and qualifiers", () => {
  it("normalises claims with NFKC, casefold and word runs", () => {
    expect(normalizeClaim("  Ｅnterprise—refunds_CLOSE!! ")).toBe("enterprise refunds close");
    expect(normalizeClaim("Straße")).toBe(normalizeClaim("STRASSE"));
    expect(normalizeClaim("?!")).toBe("");
  });
  it("skips duplicates before their evidence is checked; the first wins", () => {
    const out = parseFacts([doc], {
      facts: [
        { claim: "Dup exists.", evidence: ["Dup."] },
        { claim: "DUP   exists", evidence: [{ document_id: "x", quote: "never checked" }] },
        { claim: "?!", evidence: "not checked either" },
      ],
    });
    expect(out.map((f) => f.claim)).toEqual(["Dup exists."]);
    expect(out[0]!.row).toBe(0);
  });
  it("aborts the whole parse on one bad citation", () => {
    const output = {
      facts: [
        { claim: "Dup", evidence: ["Dup."] },
        { claim: "bad", evidence: [{ document_id: D, quote: "absent" }] },
      ],
    };
    expect(failure([doc], output).code).toBe("quote_not_in_document");
  });
  it("copies qualifiers verbatim, nulls included", () => {
    const output = parsePythonJson('{"facts": [{"claim": "Dup", "evidence": ["Dup."], "subject": "refunds", "valid_to": null, "scopes": ["eu"], "other": 1}]}');
    const [result] = parseFacts([doc], output);
    expect(Object.keys(result!.qualifiers)).toEqual(["subject", "scopes", "valid_to"]);
    expect(result!.qualifiers["valid_to"]).toBeNull();
  });
  it("counts repeated citations (evidence is not de-duplicated)", () => {
    const [result] = parseFacts([doc], fact(["Dup.", "Dup."], "Dup"));
    expect(result!.evidence).toHaveLength(2);
    expect(result!.grounding).toBe(0.95);
  });
});

describe("grounding coverage (§7.4)", () => {
  const cite = (document_id: string, quote: string) => ({ document_id, quote });
  it("scores the worked example 0.5", () => {
    expect(groundingCoverage("Enterprise refunds close after 30 days.", [cite("a", "after 30 days.")])).toBe(0.5);
  });
  it("gives 0.9, 0.95 and 1.0 for one citation, two from one document, two documents", () => {
    const claim = "Refunds close after 30 days.";
    expect(groundingCoverage(claim, [cite("a", claim)])).toBe(0.9);
    expect(groundingCoverage(claim, [cite("a", claim), cite("a", "x")])).toBe(0.95);
    expect(groundingCoverage(claim, [cite("a", claim), cite("b", "x")])).toBe(1);
  });
  it("is 0 without claim tokens or citations, and rounds to 4 places", () => {
    expect(groundingCoverage("?!", [cite("a", "x")])).toBe(0);
    expect(groundingCoverage("words", [])).toBe(0);
    expect(groundingCoverage("a b c", [cite("a", "a b"), cite("b", "zzz")])).toBe(0.7333);
    expect(groundingCoverage("STRASSE", [cite("a", "straße")])).toBe(0.9);
  });
});
