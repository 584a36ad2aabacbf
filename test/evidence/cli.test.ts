// `mari evidence` end to end: the built CLI in a child process on real files (run `npm run build` first).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";

const EXAMPLE = join(ROOT, "datasets/evidence-example");
const DOCS = join(EXAMPLE, "docs.jsonl");
const FACTS = join(EXAMPLE, "facts.jsonl");
const LOCATED = join(EXAMPLE, "located.jsonl");
const MATERIALS = join(EXAMPLE, "materials.jsonl");
const CURRENT = join(EXAMPLE, "current.jsonl");

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir("mari-evidence-")));
afterEach(() => cleanup());

const jsonl = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
const report = (out: string) => JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
const write = (name: string, lines: unknown[]) => {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return path;
};

describe("mari evidence on the example data", () => {
  it("validates every case, writes cases.jsonl, located.jsonl and the reports, and passes its gate", async () => {
    const out = join(dir, "out");
    const r = await runMari([
      "evidence",
      DOCS,
      "--facts",
      FACTS,
      "--located",
      LOCATED,
      "--materials",
      MATERIALS,
      "--current",
      CURRENT,
      "--out",
      out,
      "--gate",
      "accepted_rate>=0.3",
    ]);
    expect(r.stderr).not.toContain("mari:");
    expect(r.stderr).toContain("evidence (cases): 26");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("mari evidence");

    const cases = jsonl(join(out, "cases.jsonl"));
    expect(cases.map((c) => [c.case_id, c.accepted, c.error?.code ?? null])).toEqual([
      ["accepted-section", true, null],
      ["ambiguous", false, "ambiguous_section"],
      ["across-heading", false, "quote_not_in_section"],
      ["emoji-contradicted", true, null],
      ["bare-string", true, null],
      ["unknown-document", false, "unknown_document"],
      ["empty-quote", false, "empty_quote"],
      ["bad-envelope", false, "bad_envelope"],
      ["missing-claim", false, "missing_claim"],
      ["not-in-document", false, "quote_not_in_document"],
      ["no-evidence", false, "no_evidence"],
      ["bad-entry", false, "bad_evidence_entry"],
      ["single-document-rescue", true, null],
    ]);
    expect(cases[0].facts[0]).toMatchObject({ claim: "Enterprise plans close after 30 days.", grounding: 0.5, state: "supported" });
    expect(cases[0].facts[0].evidence[0]).toMatchObject({
      document_id: "kb/refunds",
      revision: "v3",
      start: 82,
      end: 96,
      section_id: "refunds/enterprise-plan",
    });
    expect(cases[0].facts[0].evidence[0].section_revision).toMatch(/^c0afba1b[0-9a-f]{52}3058$/);
    // --current changed only the "Dup." section: with section revisions, a new document revision alone is not stale.
    expect(cases[0].freshness).toBe("current");
    expect(cases[4].freshness).toBe("stale");
    // Emoji body: offsets are code points; the model's own start/end are ignored.
    expect(cases[3].facts[0].evidence[0]).toMatchObject({ start: 25, end: 60, section_id: "plan" });
    expect(cases[3].facts[0].state).toBe("contradicted");
    expect(cases[12].facts).toHaveLength(1);
    expect(cases[12].facts[0].evidence[0]).toMatchObject({ document_id: "kb/Stra%C3%9Fe%20FAQ", section_id: "strasse-2" });
    expect(cases[12].freshness).toBe("missing");

    const located = jsonl(join(out, "located.jsonl"));
    const kinds = Object.fromEntries(located.map((c) => [c.case_id, c.error?.code ?? c.issues.map((i: { kind: string }) => i.kind).join(",") ?? ""]));
    expect(kinds).toEqual({
      "text-span": "",
      "json-pointer": "",
      "float-quote-mismatch": "quote_mismatch",
      "lenient-index": "",
      "table-cell-on-mapping": "invalid_span",
      "record-field": "",
      media: "unsupported_locator",
      "not-visible": "not_visible",
      unresolved: "unresolved",
      "bad-span": "bad_located_entry",
      "missing-key": "invalid_span",
      "record-not-mapping": "invalid_span",
      "float-index": "invalid_span",
    });

    const rep = report(out);
    expect(rep.task).toBe("evidence");
    expect(rep.metrics).toMatchObject({ cases: 13, accepted: 4, claims_supported: 1, claims_contradicted: 1, claims_uncertain: 2, claim_state_accuracy: 1 });
    expect(rep.metrics.accepted_rate).toBeCloseTo(4 / 13, 12);
    expect(rep.errors).toMatchObject({ ambiguous_section: 1, bad_envelope: 1, quote_not_in_section: 1 });
    expect(rep.error_examples.ambiguous_section[0]).toMatchObject({ case_id: "ambiguous", where: `${FACTS}:2` });
    expect(rep.freshness).toEqual({ stale: 1, current: 2, missing: 1 });
    expect(rep.dependencies.map((d: { dependency_id: string }) => d.dependency_id)).toEqual([
      "kb/Stra%C3%9Fe%20FAQ#strasse-2",
      "kb/emoji#plan",
      "kb/refunds#refunds-2",
      "kb/refunds#refunds/enterprise-plan",
    ]);
    expect(rep.located.issues).toEqual({ not_visible: 1, unresolved: 1, invalid_span: 4, unsupported_locator: 1, quote_mismatch: 1 });
    expect(rep.metrics).toMatchObject({ located_cases: 13, located_accepted: 4 });
    expect(rep.gates).toEqual([expect.objectContaining({ name: "accepted_rate>=0.3", passed: true })]);
    for (const file of ["report.md", "report.html", "report.junit.xml"]) expect(readFileSync(join(out, file), "utf8").length).toBeGreaterThan(0);
  });

  it("applies --threshold to the caller's scores", async () => {
    const out = join(dir, "t");
    expect((await runMari(["evidence", DOCS, "--facts", FACTS, "--out", out, "--quiet", "--threshold", "0.95"])).code).toBe(0);
    const cases = jsonl(join(out, "cases.jsonl"));
    expect([cases[0].facts[0].state, cases[3].facts[0].state]).toEqual(["uncertain", "contradicted"]);
    expect((await runMari(["evidence", DOCS, "--facts", FACTS, "--threshold", "2"])).code).toBe(2);
  });

  it("exits 1 when a gate fails", async () => {
    const r = await runMari(["evidence", DOCS, "--facts", FACTS, "--out", join(dir, "o"), "--gate", "accepted_rate>=0.9", "--quiet"]);
    expect(r.code).toBe(1);
    expect(report(join(dir, "o")).gates[0].passed).toBe(false);
  });
});

describe("mari evidence input handling", () => {
  const doc = { source_id: "kb", external_id: "a", revision: "1", body: "# A\none\n# A\ntwo\n# A 2\nthree\n" };

  it("counts bad lines under their reasons with file:line and keeps going; --strict makes that exit 2", async () => {
    const docs = write("docs.jsonl", [
      doc,
      { source_id: "kb", external_id: "b", body: "x" },
      '{"source_id": "kb", "external_id": "s", "revision": "1", "body": "bad \\ud800"}',
    ]);
    const facts = write("facts.jsonl", [
      { case_id: "ok", output: { facts: [{ claim: "one", evidence: ["one"] }] } },
      "{not json",
      "",
      { case_id: "ok", output: {} },
      { case_id: 7, output: {} },
      { case_id: "d", documents: "kb/a", output: {} },
      { case_id: "u", documents: ["kb/zzz"], output: {} },
      { case_id: "g", gold_state: "maybe", output: {} },
      { case_id: "s", output: { facts: [{ claim: "one", evidence: [{ quote: "one", entailment: 2 }] }] } },
      "[1]",
    ]);
    const out = join(dir, "out");
    const r = await runMari(["evidence", docs, "--facts", facts, "--out", out, "--quiet"]);
    expect(r.code).toBe(0);
    const rep = report(out);
    expect(rep.rejections).toEqual({
      bad_document: 2,
      malformed_json: 1,
      blank_line: 1,
      duplicate_case: 1,
      bad_case_id: 1,
      bad_documents_field: 1,
      unknown_listed_document: 1,
      bad_gold_state: 1,
      bad_score: 1,
      not_an_object: 1,
    });
    expect(rep.rejection_examples.map((e: { where: string }) => e.where)).toContain(`${facts}:2`);
    expect(r.stderr).toContain(`${docs}:2: bad_document: "revision" is required (a string)`);
    expect(r.stderr).toContain(`${docs}:3: bad_document: 'utf-8' codec can't encode character '\\ud800' in position 4: surrogates not allowed`);
    expect(rep.predictions.lines).toBe(10);
    expect(jsonl(join(out, "cases.jsonl"))).toHaveLength(1);

    const strict = await runMari(["evidence", docs, "--facts", facts, "--out", join(dir, "strict"), "--quiet", "--strict"]);
    expect(strict.code).toBe(2);
    expect(readFileSync(join(dir, "strict", "report.junit.xml"), "utf8")).toContain("<error");
  });

  it("fails only the cases that see two different versions of one document", async () => {
    const docs = write("docs.jsonl", [doc, { ...doc, revision: "2" }, { source_id: "kb", external_id: "c", revision: "1", body: "solo" }]);
    const facts = write("facts.jsonl", [
      { case_id: "all", output: { facts: [{ claim: "solo", evidence: ["solo"] }] } },
      { case_id: "c-only", documents: ["kb/c"], output: { facts: [{ claim: "solo", evidence: ["solo"] }] } },
    ]);
    const out = join(dir, "out");
    // cases.jsonl is the subject: the task in this process.
    await runTask({ task: "evidence", documents: docs, facts }, out);
    const cases = jsonl(join(out, "cases.jsonl"));
    expect(cases[0].error).toEqual({
      code: "conflicting_documents",
      message:
        "conflicting documents share document_id 'kb/a' (revisions '1' and '2'); provide one consistent document per document_id or namespace the documents",
    });
    expect(cases[1].accepted).toBe(true);
  });

  it("reports the section-id collision hazard as a dependency conflict of the case, not a crash", async () => {
    const docs = write("docs.jsonl", [doc]);
    const facts = write("facts.jsonl", [{ case_id: "c", output: { facts: [{ claim: "two and three", evidence: ["two", "three"] }] } }]);
    const out = join(dir, "out");
    await runTask({ task: "evidence", documents: docs, facts }, out);
    const [line] = jsonl(join(out, "cases.jsonl"));
    expect(line.accepted).toBe(true);
    expect(line.facts[0].evidence.map((e: { section_id: string }) => e.section_id)).toEqual(["a-2", "a-2"]);
    expect(line.dependency_error).toBe("evidence references multiple revisions of 'kb/a#a-2'");
    expect(report(out).dependency_conflicts.count).toBe(1);
  });

  it("reads documents from CSV and by document_id", async () => {
    const docs = join(dir, "docs.csv");
    writeFileSync(docs, 'document_id,revision,title,body\nkb/Stra%C3%9Fe,r1,T,"# Straße\nOpen daily."\n');
    const facts = write("facts.jsonl", [
      { case_id: "c", output: { facts: [{ claim: "open", evidence: [{ document_id: "kb/Stra%C3%9Fe", quote: "Open daily." }] }] } },
    ]);
    const out = join(dir, "out");
    await runTask({ task: "evidence", documents: docs, facts }, out);
    expect(jsonl(join(out, "cases.jsonl"))[0].facts[0].evidence[0]).toMatchObject({ section_id: "strasse", start: 9, end: 20 });
  });

  it("exits 2 on zero cases, unreadable files and incomplete flags", async () => {
    const docs = write("docs.jsonl", [doc]);
    const empty = write("facts.jsonl", ["{broken"]);
    const zero = await runMari(["evidence", docs, "--facts", empty, "--out", join(dir, "z"), "--quiet"]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain("no case to score");
    expect((await runMari(["evidence", join(dir, "missing.jsonl"), "--facts", empty])).code).toBe(2);
    expect((await runMari(["evidence", docs, "--facts", join(dir, "missing.jsonl")])).code).toBe(2);
    expect((await runMari(["evidence", docs])).stderr).toContain("give --facts FILE");
    expect((await runMari(["evidence", docs, "--located", empty])).code).toBe(2);
    const noDocs = write("nodocs.jsonl", [{ source_id: "kb" }]);
    expect((await runMari(["evidence", noDocs, "--facts", empty])).stderr).toContain("no usable document");
  });

  it("when no document is usable, the error names each bad record's file and line", async () => {
    const docs = write("bad-docs.jsonl", [{ source_id: "kb" }, "{broken"]);
    const facts = write("facts.jsonl", [{ case_id: "c", output: { facts: [] } }]);
    const r = await runMari(["evidence", docs, "--facts", facts, "--out", join(dir, "o"), "--quiet"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${docs}: no usable document (2 records)`);
    expect(r.stderr).toContain(`${docs}:1: bad_document: needs "source_id" and "external_id", or "document_id"`);
    expect(r.stderr).toContain(`${docs}:2: malformed_json: `);
  });
});
