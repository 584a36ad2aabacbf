// Documents, ids and markdown sections: docs/evidence.md and §6, worked examples and corners.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  bodySections,
  contentDigest,
  documentId,
  EvidenceValueError,
  knowledgeDocument,
  parseDocumentId,
  sectionKey,
  sectionRevisions,
  sectionSlug,
} from "../../src/core/evidence/index.js";

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const shape = (body: string) => bodySections(body, "Doc").map((s) => [s.section_id, s.start, s.end]);

const WORKED_BODY = "Intro\n# Refunds\nEnterprise refunds close after 30 days.\n### Enterprise Plan\nClose after 30 days.\n# Refunds\nDup.\n";

describe("document ids and digests (§5)", () => {
  it("percent-encodes each id part as the reference does", () => {
    expect(documentId("notion", "page:1")).toBe("notion/page:1");
    expect(documentId("s", "a/b c!*'()~é")).toBe("s/a%2Fb%20c%21%2A%27%28%29~%C3%A9");
    expect(documentId("u@x", "😀")).toBe("u@x/%F0%9F%98%80");
  });
  it("parses ids back and rejects non-canonical ones", () => {
    expect(parseDocumentId("s/a%2Fb%20c%21%2A%27%28%29~%C3%A9")).toEqual({ source_id: "s", external_id: "a/b c!*'()~é" });
    for (const bad of ["a/b/c", "nouslash", "a/b c", "a/b%2f", "a/%ZZ", "/b"]) expect(() => parseDocumentId(bad)).toThrow(EvidenceValueError);
  });
  it("recomputes the content digest with a sha256: prefix and checks a supplied one", () => {
    const doc = knowledgeDocument({ source_id: "kb", external_id: "x", body: "😀 body", revision: " v1 " });
    expect(doc.content_digest).toBe(`sha256:${sha("😀 body")}`);
    expect(contentDigest("")).toBe("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(doc.revision).toBe(" v1 "); // stored unstripped
    expect(doc.provider_revision).toBe(" v1 ");
    expect(() => knowledgeDocument({ source_id: "kb", external_id: "x", body: "b", revision: "v", content_digest: "sha256:00" })).toThrow(
      "document content_digest does not match body",
    );
    expect(() => knowledgeDocument({ source_id: " ", external_id: "x", body: "b", revision: "v" })).toThrow(EvidenceValueError);
    expect(() => knowledgeDocument({ source_id: "kb", external_id: "x", body: "b", revision: "\t" })).toThrow(EvidenceValueError);
  });
  it("refuses a body with a lone surrogate, as Python's strict UTF-8 encoding does", () => {
    expect(() => knowledgeDocument({ source_id: "kb", external_id: "x", body: "ok \ud800", revision: "v" })).toThrow("surrogates not allowed");
  });
});

describe("sections (§6)", () => {
  it("reproduces the worked example: ids, code-point offsets and revisions", () => {
    const sections = bodySections(WORKED_BODY, "Policy");
    expect(sections.map((s) => [s.section_id, s.start, s.end])).toEqual([
      ["preamble", 0, 6],
      ["refunds", 6, 56],
      ["refunds/enterprise-plan", 56, 97],
      ["refunds-2", 97, 112],
    ]);
    expect(sections.map((s) => s.revision)).toEqual([
      sha(WORKED_BODY.slice(0, 6)),
      sha(WORKED_BODY.slice(6, 56)),
      sha(WORKED_BODY.slice(56, 97)),
      sha(WORKED_BODY.slice(97, 112)),
    ]);
    expect(sections.map((s) => `${s.revision.slice(0, 8)}…${s.revision.slice(-4)}`)).toEqual([
      "a8ce85a5…2aff",
      "4ce0f2fc…6c3d",
      "c0afba1b…3058",
      "fa77fa6e…fb05",
    ]);
    expect(sections[0]!.title).toBe("Policy");
    expect(sections[2]!.title).toBe("Enterprise Plan");
    expect(sections[2]!.level).toBe(3);
  });
  it("gives a body without headings one root section, even when empty", () => {
    expect(shape("no headings here")).toEqual([["root", 0, 16]]);
    const [root] = bodySections("", "T");
    expect([root!.section_id, root!.start, root!.end, root!.title]).toEqual(["root", 0, 0, "T"]);
    expect(root!.revision).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
  it("makes even whitespace before the first heading a preamble", () => {
    expect(shape("\n# A\n")).toEqual([
      ["preamble", 0, 1],
      ["a", 1, 5],
    ]);
  });
  it("counts offsets in code points when the body has emoji and other astral characters", () => {
    const body = "😀 refunds close\n# Plan 🚀\n𝒳 costs 599.0 🎉.\n## 𝔉𝔞𝔮\ntext\n";
    const sections = bodySections(body);
    expect(sections.map((s) => [s.section_id, s.start, s.end])).toEqual([
      ["preamble", 0, 16],
      ["plan", 16, 42],
      ["plan/section", 42, 54],
    ]);
    expect(sections[1]!.text).toBe("# Plan 🚀\n𝒳 costs 599.0 🎉.\n");
    expect(Array.from(body).length).toBe(54);
    expect(body.length).toBe(61); // UTF-16 units: JavaScript indices would be wrong
  });
  it("follows the reference's heading rule, corners included", () => {
    // Not headings: no space after #, indented, seven hashes, setext underline.
    expect(shape("#Title\n  # Indented\n####### Seven\nSetext\n======\n")).toEqual([["root", 0, 48]]);
    // A fenced code block is not special: its "# comment" is a heading.
    expect(shape("```\n# comment\n```\n").map((s) => s[0])).toEqual(["preamble", "comment"]);
    // Closing hashes stay in the title; they slug away.
    const closing = bodySections("## Title ##\n");
    expect([closing[0]!.section_id, closing[0]!.title]).toEqual(["title", "Title ##"]);
    // "#" plus two spaces is a heading with an empty title ("section"); "# " alone is not.
    expect(shape("#  \nx\n")).toEqual([["section", 0, 6]]);
    expect(shape("# \nx\n")).toEqual([["root", 0, 5]]);
    // Tabs work as the gap.
    expect(shape("#\tTabbed\n")).toEqual([["tabbed", 0, 9]]);
  });
  it("trims the \\r of CRLF from titles but keeps it in the section text", () => {
    const sections = bodySections("# Title\r\nbody\r\n## Sub\r\n");
    expect(sections.map((s) => [s.section_id, s.title])).toEqual([
      ["title", "Title"],
      ["title/sub", "Sub"],
    ]);
    expect(sections[0]!.text).toBe("# Title\r\nbody\r\n");
  });
  it("breaks lines only at \\n (a U+2028 or a lone \\r does not start a heading)", () => {
    expect(shape("x\u2028# Not\r# Not either\n")).toEqual([["root", 0, 21]]);
  });
  it("builds slug paths without filler for skipped levels", () => {
    expect(shape("# A\n### B\n## C\n# D\n").map((s) => s[0])).toEqual(["a", "a/b", "a/c", "d"]);
  });
  it("slugs with Python's casefold", () => {
    expect(["FAQ: What's new?", "Über uns", "Straße", "İstanbul", "", "---", "ﬁle 2"].map(sectionSlug)).toEqual([
      "faq-what-s-new",
      "ber-uns",
      "strasse",
      "i-stanbul",
      "section",
      "section",
      "file-2",
    ]);
  });
  it("suffixes duplicate ids per raw path and keeps the unsuffixed slug for children", () => {
    expect(shape("# A\n## B\n# A\n## B\n").map((s) => s[0])).toEqual(["a", "a/b", "a-2", "a/b-2"]);
  });
  it("reproduces the collision hazard: # A, # A, # A 2 gives a, a-2, a-2; the later revision wins", () => {
    const body = "# A\none\n# A\ntwo\n# A 2\nthree\n";
    const sections = bodySections(body);
    expect(sections.map((s) => s.section_id)).toEqual(["a", "a-2", "a-2"]);
    const doc = knowledgeDocument({ source_id: "kb", external_id: "a", body, revision: "1" });
    const revisions = sectionRevisions([doc]);
    expect(revisions.size).toBe(2);
    expect(revisions.get(sectionKey("kb/a", "a-2"))).toBe(sha("# A 2\nthree\n"));
  });
});
